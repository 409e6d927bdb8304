import { Entity } from 'typeorm';
import { BoolColumn, DateTimeColumn, IntColumn, LongTextColumn, MoneyColumn, TextColumn } from '../../common/columns.js';
import { RecordEntity } from '../../common/record.entity.js';

/**
 * A business's bill to one of its customers (contract §3). The InvoiceNumber, the CurrencyCode and
 * every BillTo* field (and the customer's name) are stored when it is issued, copied from its customer, currency and country.
 */
@Entity('coworkerinvoice')
export class CoworkerInvoice extends RecordEntity {
  @IntColumn({ nullable: false }) CoworkerId: number;
  @TextColumn() CoworkerFullName: string | null;
  @IntColumn({ nullable: false }) BusinessId: number;
  @TextColumn({ length: 32, nullable: false }) InvoiceNumber: string;
  @IntColumn({ nullable: false }) CurrencyId: number;
  @TextColumn({ length: 3 }) CurrencyCode: string | null;
  @LongTextColumn() Description: string | null;
  @DateTimeColumn() DueDate: Date | null;
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
  @IntColumn() BillToCountryId: number | null;
  @TextColumn() BillToCountryName: string | null;
}
