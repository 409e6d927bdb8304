import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { surveys } from './surveys.definition.js';

@Module(RecordModule.forType({ definition: surveys }))
export class SurveysModule {}
