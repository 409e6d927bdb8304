import { Module } from '@nestjs/common';
import { RecordModule } from '../../common/record.module.js';
import { businesses } from './businesses.definition.js';

@Module(RecordModule.forType({ definition: businesses }))
export class BusinessesModule {}
