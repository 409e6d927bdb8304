import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { surveyRuns } from './survey-runs.definition.js';

@Module(RecordModule.forType({ definition: surveyRuns }))
export class SurveyRunsModule {}
