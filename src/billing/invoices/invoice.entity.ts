import { Entity, Index } from 'typeorm';
import { BoolColumn, DateTimeColumn, IntColumn, LongTextColumn, MoneyColumn, TextColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';
import { Business } from '../../kernel/businesses/business.entity.js';
import { Country } from '../../kernel/countries/country.entity.js';
import { Currency } from '../../kernel/currencies/currency.entity.js';

/**
 * The platform's bill to a space operator (docs/api.md §9.4). InvoiceNumber, CurrencyCode and
 * BillToCountryName are stored at issuance (a snapshot), not looked up when read.
 */
@Entity('invoice')
@Index(['BusinessId', 'InvoiceNumber'], { unique: true })
// A business's invoices by due date (migration ListIndexes).
@Index(['BusinessId', 'DueDate'])
export class Invoice extends RecordEntity {
  @IntColumn({ nullable: false, references: () => Business }) BusinessId: number;
  @TextColumn({ length: 32, nullable: false }) InvoiceNumber: string;
  @TextColumn({ nullable: false }) BillToName: string;
  @TextColumn({ nullable: false }) BillToAddress: string;
  @TextColumn({ nullable: false }) BillToCity: string;
  @TextColumn() BillToTaxIDNumber: string | null;
  @TextColumn({ nullable: false }) BillToPostCode: string;
  @TextColumn() BillToPhone: string | null;
  @TextColumn() BillToFax: string | null;
  @IntColumn({ nullable: false, references: () => Country }) BillToCountryId: number;
  @TextColumn() BillToCountryName: string | null;
  @LongTextColumn() Description: string | null;
  @MoneyColumn() DiscountAmount: number | null;
  @DateTimeColumn({ index: true }) DueDate: Date | null;
  @DateTimeColumn() InvoiceFromDate: Date | null;
  @DateTimeColumn() InvoiceToDate: Date | null;
  @MoneyColumn() SubscriptionAmount: number | null;
  @MoneyColumn() ResellerAmount: number | null;
  @MoneyColumn() TotalAmount: number | null;
  @IntColumn({ nullable: false, references: () => Currency }) CurrencyId: number;
  @TextColumn({ length: 3 }) CurrencyCode: string | null;
  @MoneyColumn() TaxAmount: number | null;
  @BoolColumn() Paid: boolean;
  @DateTimeColumn() PaidOn: Date | null;
  @LongTextColumn() CustomData: string | null;
  @IntColumn() PaymentAttemptsCount: number | null;
}
