import { Bool, Integer, Money, Reference, Text } from '../../../records/validation/fields.js';
import { RecordDto } from '../../../records/validation/record.dto.js';
import { Business } from '../../../kernel/businesses/business.entity.js';
import { Currency } from '../../../kernel/currencies/currency.entity.js';
import { TaxRate } from '../../../kernel/tax-rates/tax-rate.entity.js';

/** A kind of pass (docs/presence.md). */
export class TimePassDto extends RecordDto {
  @Reference(() => Business, { required: true }) BusinessId: number;
  @Text({ required: true }) Name: string;
  /** The price of each pass of it (a customer's pass may be given another). */
  @Money({ required: true, min: 0 }) Price: number;
  @Reference(() => Currency, { required: true }) CurrencyId: number;
  /** The text of its invoice line; null: the Name. */
  @Text() InvoiceDisplay?: string | null;
  /** A tax rate of the business. */
  @Reference(() => TaxRate, { sameBusiness: true }) TaxRateId?: number | null;
  /** Sold pay-as-you-go at check-in to customers without a contract. */
  @Bool() PaygContacts?: boolean | null;
  /** Stored: members need no pass here. */
  @Bool() PaygMembers?: boolean | null;
  /** Among pay-as-you-go passes the lowest first, null last. */
  @Integer() UsePriority?: number | null;
  /** A customer's pass made without ExpireDate expires this many days after its SaleDate; null: never. */
  @Integer({ min: 1, max: 3650 }) ValidityDays?: number | null;
  /** Stored: every pass here covers a calendar day. */
  @Integer({ min: 0 }) MinutesIncluded?: number | null;
  /** No new passes of it, never pay-as-you-go. */
  @Bool() Archived?: boolean | null;
}
