import { Entity } from 'typeorm';
import { BoolColumn, IntColumn, LongTextColumn, TextColumn } from '../../common/columns.js';
import { RecordEntity } from '../../common/record.entity.js';

/** A survey a business sends to its customers; each sending is a SurveyRun. */
@Entity('survey')
export class Survey extends RecordEntity {
  @IntColumn({ nullable: false }) BusinessId: number;
  @TextColumn({ nullable: false }) Name: string;
  @LongTextColumn() Description: string | null;
  @BoolColumn() Active: boolean;
}
