import { Entity, Index } from 'typeorm';
import { BoolColumn, DateTimeColumn, IntColumn, LongTextColumn, MoneyColumn, TextColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';
import { Business } from '../../kernel/businesses/business.entity.js';
import { TaxRate } from '../../kernel/tax-rates/tax-rate.entity.js';
import { Coworker } from '../../customers/coworker.entity.js';

/**
 * An ad-hoc amount billed to a customer by the next billing run (docs/billing.md "Charges"): one line,
 * billed once (Invoiced, InvoicedOn, CoworkerInvoiceId); CreditAmount is what universal credits paid of it.
 */
@Entity('charge')
// A customer's charges waiting for an invoice.
@Index(['CoworkerId', 'Invoiced'])
export class Charge extends RecordEntity {
  @IntColumn({ nullable: false, references: () => Business }) BusinessId: number;
  @IntColumn({ nullable: false, references: () => Coworker }) CoworkerId: number;
  @LongTextColumn({ nullable: false }) Description: string;
  /** The amount billed, before tax. */
  @MoneyColumn({ nullable: false, default: 0 }) TotalAmount: number;
  @TextColumn() InvoiceLineDisplayAs: string | null;
  @IntColumn({ references: () => TaxRate }) TaxRateId: number | null;
  /** The date it is billed on. */
  @DateTimeColumn({ nullable: false }) SaleDate: Date;
  @DateTimeColumn() DueDate: Date | null;
  @TextColumn() PurchaseOrder: string | null;
  @BoolColumn() Invoiced: boolean;
  @DateTimeColumn() InvoicedOn: Date | null;
  @IntColumn() CoworkerInvoiceId: number | null;
  @MoneyColumn({ nullable: false, default: 0 }) CreditAmount: number;
}
