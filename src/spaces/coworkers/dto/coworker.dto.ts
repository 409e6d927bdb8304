import { MinLength } from 'class-validator';
import { Bool, EmailAddress, Enum, Reference, Text } from '../../../common/validation/fields.js';
import { RecordDto } from '../../../common/validation/record.dto.js';
import { Tariff } from '../../../billing/tariffs/tariff.entity.js';
import { Business } from '../../../sys/businesses/business.entity.js';
import { Country } from '../../../sys/countries/country.entity.js';
import { CoworkerType } from '../coworker.entity.js';

export class CoworkerDto extends RecordDto {
  @Reference(() => Business, { required: true }) BusinessId: number;
  @Text({ required: true }) FullName: string;
  @EmailAddress({ required: true }) Email: string;
  @Enum(CoworkerType) CoworkerType?: number | null;
  @Text() CompanyName?: string | null;
  @Text() BillingName?: string | null;
  @Text() Address?: string | null;
  @Text() City?: string | null;
  @Text() PostCode?: string | null;
  @Reference(() => Country) CountryId?: number | null;
  @Text() TaxIDNumber?: string | null;
  @Text() MobilePhone?: string | null;
  /** The customer's plan; set means an active contract. */
  @Reference(() => Tariff) TariffId?: number | null;
  /** Create the customer's login (email = the coworker's Email) with Password; write-only. */
  @Bool() CreateUser?: boolean | null;
  @Text({ max: 200 })
  @MinLength(8, { message: '$property must be at least 8 characters long.' })
  Password?: string | null;
}
