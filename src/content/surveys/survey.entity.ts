import { Entity } from 'typeorm';
import { BoolColumn, IntColumn, LongTextColumn, TextColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';
import { Business } from '../../kernel/businesses/business.entity.js';

/** A survey a business sends to its customers; each sending is a SurveyRun. */
@Entity('survey')
export class Survey extends RecordEntity {
  @IntColumn({ nullable: false, references: () => Business }) BusinessId: number;
  @TextColumn({ nullable: false, index: true }) Name: string;
  @LongTextColumn() Description: string | null;
  @BoolColumn() Active: boolean;
}
