import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { CoworkerContractsModule } from '../../billing/coworker-contracts/coworker-contracts.module.js';
import { UsersModule } from '../../billing/users/users.module.js';
import { coworkers } from './coworkers.definition.js';
import { CoworkersRepository } from './coworkers.repository.js';
import { CoworkersRules } from './coworkers.rules.js';
import { coworkerEvents } from './coworkers.events.js';

@Module(
  RecordModule.forType({
    definition: coworkers,
    events: coworkerEvents,
    rules: CoworkersRules,
    providers: [CoworkersRepository],
    imports: [UsersModule, CoworkerContractsModule],
  }),
)
export class CoworkersModule {}
