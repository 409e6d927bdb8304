import { Bool, DateTime, Integer, Money, Reference, Text } from '../../../records/validation/fields.js';
import { RecordDto } from '../../../records/validation/record.dto.js';
import { Business } from '../../../kernel/businesses/business.entity.js';
import { Country } from '../../../kernel/countries/country.entity.js';
import { Currency } from '../../../kernel/currencies/currency.entity.js';

/** The update body of docs/api.md §9.4: the bill-to details only. InvoiceNumber is never a request field. */
export class InvoiceUpdateDto extends RecordDto {
  /** The invoice's business; an issued invoice cannot move to another one. */
  @Reference(() => Business, { required: true }) BusinessId: number;
  @Text({ required: true }) BillToName: string;
  @Text({ required: true }) BillToAddress: string;
  @Text({ required: true }) BillToCity: string;
  @Text({ required: true }) BillToPostCode: string;
  /** Bill-to country; BillToCountryName is captured from it when it is set. */
  @Reference(() => Country, { required: true }) BillToCountryId: number;
  @Text() BillToTaxIDNumber?: string | null;
  @Text() BillToPhone?: string | null;
  @Text() BillToFax?: string | null;
}

/** The create body (docs/api.md §3): the bill-to details, the currency, amounts and dates. */
export class InvoiceDto extends InvoiceUpdateDto {
  /** Currency; CurrencyCode is captured from it at issuance. */
  @Reference(() => Currency, { required: true }) CurrencyId: number;
  @Text({ long: true }) Description?: string | null;
  @Money() DiscountAmount?: number | null;
  @DateTime() DueDate?: Date | null;
  @DateTime() InvoiceFromDate?: Date | null;
  @DateTime() InvoiceToDate?: Date | null;
  @Money() SubscriptionAmount?: number | null;
  @Money() ResellerAmount?: number | null;
  @Money() TotalAmount?: number | null;
  @Money() TaxAmount?: number | null;
  @Bool() Paid?: boolean | null;
  @DateTime() PaidOn?: Date | null;
  /** Arbitrary JSON or text for integration metadata. */
  @Text({ long: true }) CustomData?: string | null;
  @Integer({ min: 0 }) PaymentAttemptsCount?: number | null;
}
