import { Entity, Index } from 'typeorm';
import { BoolColumn, DateTimeColumn, IntColumn, LongTextColumn, TextColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';
import { Business } from '../../kernel/businesses/business.entity.js';

export const URL_MAX = 2048;

/** A hook: where to POST the records of one action in one business (docs/api.md §11.7). */
@Entity('webhook')
@Index(['BusinessId', 'Action'])
export class WebHook extends RecordEntity {
  @IntColumn({ nullable: false, references: () => Business }) BusinessId: number;
  @TextColumn({ nullable: false, index: true }) Name: string;
  @IntColumn({ nullable: false }) Action: number;
  @TextColumn({ nullable: false, length: URL_MAX }) URL: string;
  @LongTextColumn() Description: string | null;
  @BoolColumn({ default: true }) Active: boolean;
  /** The signing secret: never sent but by GET /{id}/secret. */
  @TextColumn({ nullable: false }) Secret: string;
  @LongTextColumn() LastError: string | null;
  @IntColumn({ nullable: false, default: 0 }) ErrorCount: number;
  @DateTimeColumn() LastTrigger: Date | null;
}
