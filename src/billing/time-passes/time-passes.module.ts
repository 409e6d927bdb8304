import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { timePasses } from './time-passes.definition.js';

@Module(RecordModule.forType({ definition: timePasses }))
export class TimePassesModule {}
