import { Module } from '@nestjs/common';
import { RecordModule } from '../../common/record.module.js';
import { surveys } from './surveys.definition.js';

@Module(RecordModule.forType({ definition: surveys }))
export class SurveysModule {}
