import { Enum, PatternText, Reference, Text } from '../../../records/validation/fields.js';
import { RecordDto } from '../../../records/validation/record.dto.js';
import { Country } from '../../countries/country.entity.js';
import { Currency } from '../../currencies/currency.entity.js';
import { VAT_IDENTIFIER } from '../vat-identifier.js';

export class BusinessDto extends RecordDto {
  @Text({ required: true }) Name: string;
  @Reference(() => Currency, { required: true }) CurrencyId: number;
  @Reference(() => Country, { required: true }) CountryId: number;
  @Text() Address?: string | null;
  @Text() City?: string | null;
  @Text() PostCode?: string | null;
  @Text() Email?: string | null;
  @Text() WebAddress?: string | null;
  @Text() SimpleTimeZoneId?: string | null;
  /** The seller's legal name on e-invoices (BT-27); when null, `Name`. */
  @Text() LegalName?: string | null;
  /** The seller's VAT identifier (BT-31): a country prefix (ISO 3166-1 alpha-2, or EL), then 2 to 13 of A-Z, a-z, 0-9, +, *, . */
  @PatternText(VAT_IDENTIFIER, 'a VAT identifier: a country prefix (ISO 3166-1 alpha-2, or EL), then 2 to 13 letters, digits, +, * or .')
  TaxIDNumber?: string | null;
  /** The seller's legal registration identifier (BT-30), e.g. a company register number. */
  @Text() LegalRegistrationNumber?: string | null;
  /** The account e-invoices ask to be paid to (BT-84), without spaces. */
  @PatternText(/^[A-Za-z]{2}[0-9]{2}[A-Za-z0-9]{11,30}$/, 'an IBAN: 2 letters, 2 digits, then 11 to 30 letters or digits, without spaces')
  BankAccountIban?: string | null;
  /** The bank's BIC (BT-86). */
  @PatternText(/^[A-Za-z0-9]{8}([A-Za-z0-9]{3})?$/, 'a BIC of 8 or 11 letters or digits') BankAccountBic?: string | null;
  /** How e-invoices ask to be paid (BT-81, UNTDID 4461): 30 credit transfer, 58 SEPA credit transfer (default). */
  @Enum([30, 58]) PaymentMeansCode?: number | null;
}
