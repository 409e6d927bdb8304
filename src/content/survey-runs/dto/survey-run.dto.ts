import { Bool, DateTime, Reference } from '../../../records/validation/fields.js';
import { RecordDto } from '../../../records/validation/record.dto.js';
import { Coworker } from '../../../customers/coworker.entity.js';
import { Survey } from '../../surveys/survey.entity.js';

/** Spec §2.6 and §4.7: CoworkerId and SurveyId are required on create and on update. */
export class SurveyRunDto extends RecordDto {
  @Reference(() => Coworker, { required: true, sameBusiness: true }) CoworkerId: number;
  @Reference(() => Survey, { required: true }) SurveyId: number;
  @DateTime() MailingDate?: Date | null;
  /** Whether the customer submitted the survey (default false). */
  @Bool() Submitted?: boolean | null;
}
