import { Entity } from 'typeorm';
import { BoolColumn, DateTimeColumn, IntColumn } from '../../common/columns.js';
import { RecordEntity } from '../../common/record.entity.js';

/** One sending of a survey to a customer (spec §2.6). */
@Entity('surveyrun')
export class SurveyRun extends RecordEntity {
  @IntColumn({ nullable: false }) CoworkerId: number;
  @IntColumn({ nullable: false }) SurveyId: number;
  @DateTimeColumn() MailingDate: Date | null;
  @BoolColumn() Submitted: boolean;
}
