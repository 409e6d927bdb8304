import { DateTime, Money, Reference, Text } from '../../../records/validation/fields.js';
import { RecordDto } from '../../../records/validation/record.dto.js';
import { Coworker } from '../../../customers/coworker.entity.js';
import { Business } from '../../../kernel/businesses/business.entity.js';
import { Currency } from '../../../kernel/currencies/currency.entity.js';

/** A customer invoice's request fields; the BillTo* details are captured from the customer, not sent. */
export class CoworkerInvoiceDto extends RecordDto {
  /** The customer billed: a customer of BusinessId. */
  @Reference(() => Coworker, { required: true, sameBusiness: true }) CoworkerId: number;
  /** The issuing business; an issued invoice cannot move to another one. */
  @Reference(() => Business, { required: true }) BusinessId: number;
  @Reference(() => Currency, { required: true }) CurrencyId: number;
  @Text({ long: true }) Description?: string | null;
  @DateTime() DueDate?: Date | null;
  @DateTime() InvoiceFromDate?: Date | null;
  @DateTime() InvoiceToDate?: Date | null;
  @Money() TotalAmount?: number | null;
  @Money() TaxAmount?: number | null;
  @Money() DiscountAmount?: number | null;
  // Paid, PaidOn, Void and the other settled fields are read-only (docs/api.md §10.1): payments are
  // ledger entries, and void is a command; a body's values for them are ignored.
}
