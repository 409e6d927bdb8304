import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { teams } from './teams.definition.js';
import { TeamsRepository } from './teams.repository.js';
import { TeamsRules } from './teams.rules.js';
import { teamEvents } from './teams.events.js';

@Module(RecordModule.forType({ definition: teams, events: teamEvents, rules: TeamsRules, providers: [TeamsRepository] }))
export class TeamsModule {}
