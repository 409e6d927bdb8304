import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { resourceTypes } from './resource-types.definition.js';

@Module(RecordModule.forType({ definition: resourceTypes }))
export class ResourceTypesModule {}
