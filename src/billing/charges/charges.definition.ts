import { defineRecord } from '../../records/record-definition.js';
import { Coworker } from '../../customers/coworker.entity.js';
import { Charge } from './charge.entity.js';
import { ChargeDto } from './dto/charge.dto.js';

export const charges = defineRecord({
  name: 'Charge',
  path: 'billing/charges',
  entity: Charge,
  dto: ChargeDto,
  business: { column: 'BusinessId' },
  reads: {
    CoworkerFullName: { from: () => Coworker, on: 'CoworkerId', column: 'FullName' },
  },
  toStringText: (c) => `${c.Description} - ${c.CoworkerFullName}`,
});
