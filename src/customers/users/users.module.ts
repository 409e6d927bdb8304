import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { users } from './users.definition.js';
import { UsersRepository } from './users.repository.js';
import { UsersRules } from './users.rules.js';

@Module(RecordModule.forType({ definition: users, rules: UsersRules, providers: [UsersRepository] }))
export class UsersModule {}
