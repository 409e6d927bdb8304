import { Entity, Index } from 'typeorm';
import { BoolColumn, DateTimeColumn, IntColumn, LongTextColumn, MoneyColumn, TextColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';
import { Coworker } from '../../customers/coworker.entity.js';
import { Business } from '../../kernel/businesses/business.entity.js';
import { Currency } from '../../kernel/currencies/currency.entity.js';
import { Country } from '../../kernel/countries/country.entity.js';

/**
 * A business's bill to one of its customers (docs/api.md §3). The InvoiceNumber, the CurrencyCode and
 * every BillTo* field (and the customer's name) are stored when it is issued, copied from its customer, currency and country.
 */
@Entity('coworkerinvoice')
@Index(['BusinessId', 'InvoiceNumber'], { unique: true })
// A business's invoices by due date (migration ListIndexes).
@Index(['BusinessId', 'DueDate'])
export class CoworkerInvoice extends RecordEntity {
  @IntColumn({ nullable: false, references: () => Coworker }) CoworkerId: number;
  @TextColumn() CoworkerFullName: string | null;
  @IntColumn({ nullable: false, references: () => Business }) BusinessId: number;
  @TextColumn({ length: 32, nullable: false }) InvoiceNumber: string;
  @IntColumn({ nullable: false, references: () => Currency }) CurrencyId: number;
  @TextColumn({ length: 3 }) CurrencyCode: string | null;
  @LongTextColumn() Description: string | null;
  @DateTimeColumn({ index: true }) DueDate: Date | null;
  @DateTimeColumn() InvoiceFromDate: Date | null;
  @DateTimeColumn() InvoiceToDate: Date | null;
  @MoneyColumn() TotalAmount: number | null;
  @MoneyColumn() TaxAmount: number | null;
  @MoneyColumn() DiscountAmount: number | null;
  @BoolColumn() Paid: boolean;
  @DateTimeColumn({ index: true }) PaidOn: Date | null;
  @BoolColumn() Void: boolean;
  @TextColumn() BillToName: string | null;
  @TextColumn() BillToAddress: string | null;
  @TextColumn() BillToCity: string | null;
  @TextColumn() BillToPostCode: string | null;
  @TextColumn() BillToTaxIDNumber: string | null;
  @TextColumn() BillToPhone: string | null;
  @TextColumn() BillToFax: string | null;
  @IntColumn({ references: () => Country }) BillToCountryId: number | null;
  @TextColumn() BillToCountryName: string | null;
  // Read-only; the settlement of payments sets them. A new invoice is due in full.
  @BoolColumn() Draft: boolean;
  @MoneyColumn({ nullable: false, default: 0 }) PaidAmount: number;
  @MoneyColumn() DueAmount: number | null;
  @BoolColumn() CreditNote: boolean;
  @TextColumn({ length: 36 }) OriginalInvoiceGuid: string | null;
  @BoolColumn() Refunded: boolean;
  @DateTimeColumn() RefundedOn: Date | null;
  @MoneyColumn({ nullable: false, default: 0 }) RefundedAmount: number;
  /**
   * The part of the total from recurring subscription charges, set by a billing run (docs/billing.md
   * "SubscriptionAmount"); 0 on every other invoice. Read-only.
   */
  @MoneyColumn({ nullable: false, default: 0 }) SubscriptionAmount: number;
  /** The issuing business's name, captured at issuance like the bill-to details. */
  @TextColumn() BusinessName: string | null;
  /**
   * Bumped first by every writer of the invoice's settlement on a Galera cluster (never on the wire): two
   * nodes' writers write this row in common, so they take turns (docs/settlement.md; SettlementRepository.lockInvoice).
   */
  @IntColumn({ nullable: false, default: 0 }) SettlementSequence: number;
}
