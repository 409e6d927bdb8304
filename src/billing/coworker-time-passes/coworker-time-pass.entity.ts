import { Entity, Index } from 'typeorm';
import { BoolColumn, DateTimeColumn, IntColumn, LongTextColumn, MoneyColumn, TextColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';
import { Business } from '../../kernel/businesses/business.entity.js';
import { Coworker } from '../../customers/coworker.entity.js';
import { TimePass } from '../time-passes/time-pass.entity.js';

/**
 * A customer's pass of a TimePass (docs/presence.md): sold, released by a DayPass sale, or made
 * pay-as-you-go at a check-in. Used, UsedDate and IsPayAsYouGo are the presence rules' to set; a pass
 * that is not Free and costs more than 0 is billed once by a billing run (Invoiced, CoworkerInvoiceId).
 */
@Entity('coworkertimepass')
// A customer's unused passes in the order a check-in uses them (by ExpireDate, then Id).
@Index(['CoworkerId', 'Used', 'ExpireDate'])
// A customer's passes waiting for an invoice.
@Index(['CoworkerId', 'Invoiced'])
export class CoworkerTimePass extends RecordEntity {
  @IntColumn({ nullable: false, references: () => Coworker }) CoworkerId: number;
  @IntColumn({ nullable: false, references: () => Business }) BusinessId: number;
  @IntColumn({ nullable: false, references: () => TimePass }) TimePassId: number;
  @DateTimeColumn() ExpireDate: Date | null;
  @BoolColumn() Free: boolean;
  @MoneyColumn({ nullable: false, default: 0 }) Price: number;
  /** The date the pass is billed on. */
  @DateTimeColumn({ nullable: false }) SaleDate: Date;
  @LongTextColumn() Notes: string | null;
  @TextColumn() PurchaseOrder: string | null;
  @BoolColumn() Used: boolean;
  @DateTimeColumn() UsedDate: Date | null;
  @BoolColumn() IsPayAsYouGo: boolean;
  /** The UniqueId of the DayPass sale that released it; null otherwise. */
  @TextColumn({ length: 36, index: true }) CoworkerProductUniqueId: string | null;
  @BoolColumn() Invoiced: boolean;
  @DateTimeColumn() InvoicedOn: Date | null;
  @IntColumn() CoworkerInvoiceId: number | null;
}
