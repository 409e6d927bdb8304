import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { resources } from './resources.definition.js';
import { ResourcesRules } from './resources.rules.js';
import { ResourcesRepository } from './resources.repository.js';

@Module(RecordModule.forType({ definition: resources, rules: ResourcesRules, providers: [ResourcesRepository] }))
export class ResourcesModule {}
