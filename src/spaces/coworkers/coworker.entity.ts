import { Entity } from 'typeorm';
import { IntColumn, TextColumn } from '../../common/columns.js';
import { RecordEntity } from '../../common/record.entity.js';
import { Tariff } from '../../billing/tariffs/tariff.entity.js';
import { Business } from '../../sys/businesses/business.entity.js';
import { Country } from '../../sys/countries/country.entity.js';

export const CoworkerType = { Individual: 1, Company: 2 } as const;

/** A customer of a business. With a tariff (plan) the customer has an active contract. */
@Entity('coworker')
export class Coworker extends RecordEntity {
  @IntColumn({ nullable: false, references: () => Business }) BusinessId: number;
  @TextColumn({ nullable: false, index: true }) FullName: string;
  @TextColumn({ nullable: false, index: true }) Email: string;
  @IntColumn() CoworkerType: number | null;
  @TextColumn() CompanyName: string | null;
  @TextColumn() BillingName: string | null;
  @TextColumn() Address: string | null;
  @TextColumn() City: string | null;
  @TextColumn() PostCode: string | null;
  @IntColumn({ references: () => Country }) CountryId: number | null;
  @TextColumn() TaxIDNumber: string | null;
  @TextColumn() MobilePhone: string | null;
  @IntColumn({ references: () => Tariff }) TariffId: number | null;
}
