import { Module } from '@nestjs/common';
import { RecordModule } from '../../common/record.module.js';
import { resources } from './resources.definition.js';
import { ResourcesRules } from './resources.rules.js';

@Module(RecordModule.forType({ definition: resources, rules: ResourcesRules }))
export class ResourcesModule {}
