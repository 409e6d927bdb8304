import { Entity, Index } from 'typeorm';
import { BoolColumn, DateTimeColumn, IntColumn, LongTextColumn, MoneyColumn, TextColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';
import { Coworker } from '../../customers/coworker.entity.js';
import { Product } from '../products/product.entity.js';

/**
 * A sale: a customer bought Quantity of a product at Price (per unit) on SaleDate (docs/api.md §3).
 * Making one takes stock and releases the product's booking credits (docs/api.md §3.1).
 */
@Entity('coworkerproduct')
// A customer's sales waiting for an invoice (migration BillingRuns).
@Index(['CoworkerId', 'Invoiced'])
export class CoworkerProduct extends RecordEntity {
  @IntColumn({ nullable: false, references: () => Coworker }) CoworkerId: number;
  @IntColumn({ nullable: false, references: () => Product }) ProductId: number;
  @IntColumn({ nullable: false, default: 1 }) Quantity: number;
  @MoneyColumn({ nullable: false }) Price: number;
  @DateTimeColumn({ nullable: false, index: true }) SaleDate: Date;
  @LongTextColumn() Notes: string | null;
  @BoolColumn() Invoiced: boolean;
  // Recurring sales (docs/billing.md): billed once per occurrence of RepeatCycle × RepeatUnit.
  @BoolColumn() RegularCharge: boolean;
  @IntColumn() RepeatCycle: number | null;
  @IntColumn({ nullable: false, default: 1 }) RepeatUnit: number;
  @DateTimeColumn() RepeatFrom: Date | null;
  @DateTimeColumn() RepeatUntil: Date | null;
  // Set by billing runs: when and on which invoice it was last billed.
  @DateTimeColumn() InvoicedOn: Date | null;
  @IntColumn() CoworkerInvoiceId: number | null;
  @TextColumn({ length: 32 }) CoworkerInvoiceNumber: string | null;
  /** A recurring sale's occurrences are billed up to this date, exclusive (never on the wire). */
  @DateTimeColumn() InvoicedPeriod: Date | null;
}
