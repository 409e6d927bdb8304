import { Expose, Transform } from 'class-transformer';
import { MinLength } from 'class-validator';
import { Bool, EmailAddress, entityNamed, Enum, IdList, Reference, Text } from '../../../records/validation/fields.js';
import { RecordDto } from '../../../records/validation/record.dto.js';
import { Business } from '../../../kernel/businesses/business.entity.js';
import { Country } from '../../../kernel/countries/country.entity.js';
import { CoworkerType } from '../../coworker.entity.js';

/** The first id of a list the platform's clients name a customer's business with, if it is one. */
function firstListedBusiness(body: Record<string, unknown>): unknown {
  for (const name of ['AddedBusinesses', 'Businesses']) {
    const list = body[name];
    if (Array.isArray(list) && list.length) return list[0];
  }
  return undefined;
}

export class CoworkerDto extends RecordDto {
  /** The customer's business; when absent, the first id of AddedBusinesses or Businesses (as the platform's clients send it). */
  @Expose()
  @Transform(({ value, obj }) => value ?? firstListedBusiness(obj as Record<string, unknown>))
  @Reference(() => Business, { required: true })
  BusinessId: number;
  @IdList({ references: () => Business }) AddedBusinesses?: number[] | null;
  @IdList({ references: () => Business }) Businesses?: number[] | null;
  @Text({ required: true }) FullName: string;
  @EmailAddress({ required: true }) Email: string;
  @Enum(CoworkerType) CoworkerType?: number | null;
  @Text() Salutation?: string | null;
  @Text() CompanyName?: string | null;
  @Text() BillingName?: string | null;
  @Text() BillingEmail?: string | null;
  @Text() Address?: string | null;
  @Text() City?: string | null;
  @Text() PostCode?: string | null;
  @Reference(() => Country) CountryId?: number | null;
  @Text() TaxIDNumber?: string | null;
  /** The reference the customer asks its e-invoices to carry (BT-10), e.g. a Leitweg-ID. */
  @Text() BuyerReference?: string | null;
  @Text() MobilePhone?: string | null;
  @Text() KeyFobNumber?: string | null;
  @Text() AccessCardId?: string | null;
  @Text() AccessPincode?: string | null;
  /**
   * The customer's plan. On create it starts the customer's first contract (its main one, from now,
   * at the tariff's price). On update a different tariff ends the main active contract now and starts
   * a new main one on it; null ends every active contract now; the current tariff changes nothing.
   */
  @Reference(entityNamed('Tariff')) TariffId?: number | null;
  /** Create the customer's login (email = the coworker's Email) with Password; write-only. */
  @Bool() CreateUser?: boolean | null;
  @Text({ max: 200 })
  @MinLength(8, { message: '$property must be at least 8 characters long.' })
  Password?: string | null;
}
