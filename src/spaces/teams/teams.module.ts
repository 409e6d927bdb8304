import { Module } from '@nestjs/common';
import { RecordModule } from '../../common/record.module.js';
import { teams } from './teams.definition.js';
import { TeamsRepository } from './teams.repository.js';
import { TeamsRules } from './teams.rules.js';

@Module(RecordModule.forType({ definition: teams, rules: TeamsRules, providers: [TeamsRepository] }))
export class TeamsModule {}
