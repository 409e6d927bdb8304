import { defineRecord } from '../../records/record-definition.js';
import { SurveyDto } from './dto/survey.dto.js';
import { Survey } from './survey.entity.js';

export const surveys = defineRecord({
  name: 'Survey',
  path: 'content/surveys',
  entity: Survey,
  dto: SurveyDto,
  business: { column: 'BusinessId' },
  toStringText: (s) => String(s.Name),
});
