import { Entity } from 'typeorm';
import { DateTimeColumn, IdListColumn, IntColumn, LongTextColumn, TextColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';
import { Business } from '../../kernel/businesses/business.entity.js';

/** One billing run of one business, manual or automatic (docs/billing.md). */
@Entity('billingrun')
export class BillingRun extends RecordEntity {
  @IntColumn({ nullable: false, references: () => Business, onDelete: 'CASCADE' }) BusinessId: number;
  /** "Manual" or "Automatic". */
  @TextColumn({ length: 16, nullable: false }) Trigger: string;
  @DateTimeColumn({ nullable: false, index: true }) StartedOn: Date;
  @DateTimeColumn() FinishedOn: Date | null;
  @DateTimeColumn({ nullable: false }) Until: Date;
  @IntColumn({ nullable: false, default: 0 }) CustomersBilled: number;
  @IdListColumn() InvoiceIds: number[] | null;
  /** `[{CoworkerId, Message}]` as JSON; read as `Errors`. */
  @LongTextColumn() ErrorList: string | null;
}
