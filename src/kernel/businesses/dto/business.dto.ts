import { Reference, Text } from '../../../common/validation/fields.js';
import { RecordDto } from '../../../common/validation/record.dto.js';
import { Country } from '../../countries/country.entity.js';
import { Currency } from '../../currencies/currency.entity.js';

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
}
