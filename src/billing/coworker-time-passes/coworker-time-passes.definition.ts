import { defineRecord } from '../../records/record-definition.js';
import { Coworker } from '../../customers/coworker.entity.js';
import { TimePass } from '../time-passes/time-pass.entity.js';
import { CoworkerTimePass } from './coworker-time-pass.entity.js';
import { CoworkerTimePassDto } from './dto/coworker-time-pass.dto.js';

export const coworkerTimePasses = defineRecord({
  name: 'CoworkerTimePass',
  path: 'billing/coworkertimepasses',
  entity: CoworkerTimePass,
  dto: CoworkerTimePassDto,
  business: { column: 'BusinessId' },
  commands: true,
  filterAliases: { IsUsed: 'Used' },
  nullFilters: true,
  createdValue: {
    Ids: {
      type: 'array',
      items: { type: 'integer', format: 'int32' },
      description: 'The ids of the passes made (CreateMultiple), the first being Id.',
    },
  },
  reads: {
    TimePassName: { from: () => TimePass, on: 'TimePassId', column: 'Name' },
    CoworkerFullName: { from: () => Coworker, on: 'CoworkerId', column: 'FullName' },
    // A pass is withdrawn by deleting it: never cancelled.
    CancelDate: { kind: 'datetime', sql: () => 'NULL' },
    // Each record is one pass, however many a create made.
    CreateMultiple: { kind: 'int', nullable: false, sql: () => '1' },
  },
  toStringText: (p) => `${p.TimePassName} - ${p.CoworkerFullName}`,
});
