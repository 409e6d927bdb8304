import { Bool, Integer, Money, Reference, Text } from '../../../records/validation/fields.js';
import { RecordDto } from '../../../records/validation/record.dto.js';
import { Business } from '../../../kernel/businesses/business.entity.js';
import { Currency } from '../../../kernel/currencies/currency.entity.js';
import { TaxRate } from '../../../kernel/tax-rates/tax-rate.entity.js';

export class TariffDto extends RecordDto {
  @Reference(() => Business, { required: true }) BusinessId: number;
  @Text({ required: true }) Name: string;
  @Money({ required: true, min: 0 }) Price: number;
  @Reference(() => Currency, { required: true }) CurrencyId: number;
  @Text({ long: true }) Description?: string | null;
  @Bool() Visible?: boolean | null;
  @Bool() Archived?: boolean | null;
  /** The tax rate of its contract periods: one of the tariff's business (docs/billing.md). */
  @Reference(() => TaxRate, { sameBusiness: true }) TaxRateId?: number | null;
  /** Months per billing period, 1 to 12; 1 unless given. */
  @Integer({ min: 1, max: 12 }) InvoiceEvery?: number | null;
}
