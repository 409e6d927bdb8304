import { Module } from '@nestjs/common';
import { CoworkerContractsModule } from '../../billing/coworker-contracts/coworker-contracts.module.js';
import { CoworkerTimePassesModule } from '../../billing/coworker-time-passes/coworker-time-passes.module.js';
import { RecordModule } from '../../records/record.module.js';
import { checkins } from './checkins.definition.js';
import { checkinEvents } from './checkins.events.js';
import { CheckinsRepository } from './checkins.repository.js';
import { CheckinsRules } from './checkins.rules.js';

@Module(
  RecordModule.forType({
    definition: checkins,
    events: checkinEvents,
    rules: CheckinsRules,
    providers: [CheckinsRepository],
    imports: [CoworkerContractsModule, CoworkerTimePassesModule],
  }),
)
export class CheckinsModule {}
