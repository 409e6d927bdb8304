import { defineRecord } from '../../records/record-definition.js';
import { Coworker } from '../../customers/coworker.entity.js';
import { CoworkerDelivery } from './coworker-delivery.entity.js';
import { CoworkerDeliveryDto } from './dto/coworker-delivery.dto.js';

export const coworkerDeliveries = defineRecord({
  name: 'CoworkerDelivery',
  path: 'spaces/coworkerdeliveries',
  entity: CoworkerDelivery,
  dto: CoworkerDeliveryDto,
  business: { column: 'BusinessId' },
  commands: true,
  reads: {
    CoworkerFullName: { from: () => Coworker, on: 'CoworkerId', column: 'FullName' },
  },
  toStringText: (d) => String(d.Name),
});
