import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { UsersModule } from '../users/users.module.js';
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
    // CustomerPlans comes from billing's contracts module (global).
    imports: [UsersModule],
  }),
)
export class CoworkersModule {}
