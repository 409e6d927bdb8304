import { Entity, Index } from 'typeorm';
import { BoolColumn, DateTimeColumn, IntColumn, LongTextColumn, MoneyColumn, TextColumn } from '../../common/columns.js';
import { RecordEntity } from '../../common/record.entity.js';
import { Coworker } from '../../spaces/coworkers/coworker.entity.js';
import { Business } from '../../sys/businesses/business.entity.js';
import { Currency } from '../../sys/currencies/currency.entity.js';
import { Country } from '../../sys/countries/country.entity.js';

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
  @DateTimeColumn() PaidOn: Date | null;
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
}
