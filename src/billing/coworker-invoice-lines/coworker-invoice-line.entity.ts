import { Entity, Index } from 'typeorm';
import { DateTimeColumn, IntColumn, LongTextColumn, MoneyColumn, TextColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';
import { TaxRate } from '../../kernel/tax-rates/tax-rate.entity.js';
import { CoworkerInvoice } from '../coworker-invoices/coworker-invoice.entity.js';

/**
 * One line of a customer invoice made by a billing run (docs/billing.md): what was billed, at what
 * price and tax, for which period, from which source (one of the *UniqueId fields).
 *
 * `BilledItemKey` (never on the wire) is `<source UniqueId>/<PeriodFrom as YYYY-MM-DD>` and UNIQUE: the
 * database itself refuses a second line for one item and period, whatever ran at the same time
 * (docs/billing.md, "Exactly once"). Lines not made by a run (credit notes) leave it null.
 */
@Entity('coworkerinvoiceline')
@Index(['CoworkerInvoiceId', 'Position'])
@Index(['BilledItemKey'], { unique: true })
export class CoworkerInvoiceLine extends RecordEntity {
  @IntColumn({ nullable: false, references: () => CoworkerInvoice }) CoworkerInvoiceId: number;
  @LongTextColumn() Description: string | null;
  @IntColumn({ nullable: false, default: 1 }) Quantity: number;
  @MoneyColumn({ nullable: false, default: 0 }) UnitPrice: number;
  @MoneyColumn({ nullable: false, default: 0 }) SubTotal: number;
  @IntColumn({ references: () => TaxRate }) TaxRateId: number | null;
  @MoneyColumn({ nullable: false, default: 0 }) TaxRate: number;
  @MoneyColumn({ nullable: false, default: 0 }) TaxAmount: number;
  @MoneyColumn({ nullable: false, default: 0 }) TotalAmount: number;
  @DateTimeColumn() PeriodFrom: Date | null;
  @DateTimeColumn() PeriodTo: Date | null;
  @IntColumn({ nullable: false, default: 1 }) Position: number;
  @TextColumn({ length: 36, index: true }) CoworkerContractUniqueId: string | null;
  @TextColumn({ length: 36, index: true }) ContractProductUniqueId: string | null;
  @TextColumn({ length: 36, index: true }) CoworkerProductUniqueId: string | null;
  @TextColumn({ length: 36, index: true }) BookingUniqueId: string | null;
  /** The customer's pass billed (docs/presence.md). */
  @TextColumn({ length: 36, index: true }) CoworkerTimePassUniqueId: string | null;
  /** The charge billed (docs/billing.md "Charges"). */
  @TextColumn({ length: 36, index: true }) CoworkerChargeUniqueId: string | null;
  /** A credit line: the universal credit spent (docs/billing.md "Universal credits"). */
  @TextColumn({ length: 36, index: true }) CoworkerBookingCreditUniqueId: string | null;
  /** What universal credits paid of this line (0 on credit lines and lines they did not pay). */
  @MoneyColumn({ nullable: false, default: 0 }) CreditAmount: number;
  @TextColumn({ length: 64 }) BilledItemKey: string | null;
}
