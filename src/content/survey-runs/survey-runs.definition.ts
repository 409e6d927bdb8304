import { defineRecord } from '../../records/record-definition.js';
import { Coworker } from '../../customers/coworker.entity.js';
import { Survey } from '../surveys/survey.entity.js';
import { SurveyRunDto } from './dto/survey-run.dto.js';
import { SurveyRun } from './survey-run.entity.js';

export const surveyRuns = defineRecord({
  name: 'SurveyRun',
  path: 'content/surveyruns',
  // A type of the source document: required fields stay required on update (docs/api.md §1.2).
  requiredOnUpdate: true,
  entity: SurveyRun,
  dto: SurveyRunDto,
  business: { via: () => Survey, on: 'SurveyId' },
  reads: {
    SurveyName: { from: () => Survey, on: 'SurveyId', column: 'Name' },
    CoworkerFullName: { from: () => Coworker, on: 'CoworkerId', column: 'FullName' },
  },
  toStringText: (r) => `${r.SurveyName} - ${r.CoworkerFullName}`,
});
