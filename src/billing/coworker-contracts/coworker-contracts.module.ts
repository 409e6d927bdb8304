import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { coworkerContracts } from './coworker-contracts.definition.js';
import { CoworkerContractsRepository } from './coworker-contracts.repository.js';
import { CoworkerContractsRules } from './coworker-contracts.rules.js';
import { coworkerContractEvents } from './coworker-contracts.events.js';

@Module(
  RecordModule.forType({
    definition: coworkerContracts,
    events: coworkerContractEvents,
    rules: CoworkerContractsRules,
    providers: [CoworkerContractsRepository],
  }),
)
export class CoworkerContractsModule {}
