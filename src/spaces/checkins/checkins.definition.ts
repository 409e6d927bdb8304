import { defineRecord } from '../../records/record-definition.js';
import { Business } from '../../kernel/businesses/business.entity.js';
import { Coworker } from '../../customers/coworker.entity.js';
import { Checkin } from './checkin.entity.js';
import { CheckinDto, CheckinUpdateDto } from './dto/checkin.dto.js';

export const checkins = defineRecord({
  name: 'Checkin',
  path: 'spaces/checkins',
  entity: Checkin,
  dto: CheckinDto,
  updateDto: CheckinUpdateDto,
  business: { column: 'BusinessId' },
  hidden: ['OpenKey'],
  nullFilters: true,
  reads: {
    CoworkerFullName: { from: () => Coworker, on: 'CoworkerId', column: 'FullName' },
    BusinessName: { from: () => Business, on: 'BusinessId', column: 'Name' },
  },
  toStringText: (c) => `${c.CoworkerFullName} (${c.FromTime})`,
});
