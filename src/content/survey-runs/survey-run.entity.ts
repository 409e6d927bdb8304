import { Entity } from 'typeorm';
import { BoolColumn, DateTimeColumn, IntColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';
import { Coworker } from '../../customers/coworker.entity.js';
import { Survey } from '../surveys/survey.entity.js';

/** One sending of a survey to a customer (docs/api.md §9.6). */
@Entity('surveyrun')
export class SurveyRun extends RecordEntity {
  @IntColumn({ nullable: false, references: () => Coworker }) CoworkerId: number;
  @IntColumn({ nullable: false, references: () => Survey }) SurveyId: number;
  @DateTimeColumn({ index: true }) MailingDate: Date | null;
  @BoolColumn() Submitted: boolean;
}
