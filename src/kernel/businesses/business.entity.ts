import { Entity } from 'typeorm';
import { IntColumn, TextColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';
import { Country } from '../countries/country.entity.js';
import { Currency } from '../currencies/currency.entity.js';

/** A coworking business (an operator's location); restricted administrators are scoped to these. */
@Entity('business')
export class Business extends RecordEntity {
  @TextColumn({ nullable: false, index: true })
  Name: string;

  @IntColumn({ nullable: false, references: () => Currency })
  CurrencyId: number;

  @IntColumn({ nullable: false, references: () => Country })
  CountryId: number;

  @TextColumn() Address: string | null;
  @TextColumn() City: string | null;
  @TextColumn() PostCode: string | null;
  @TextColumn() Email: string | null;
  @TextColumn() WebAddress: string | null;
  @TextColumn() SimpleTimeZoneId: string | null;
  // What e-invoices say of the seller (docs/einvoices.md).
  @TextColumn() LegalName: string | null;
  @TextColumn() TaxIDNumber: string | null;
  @TextColumn() LegalRegistrationNumber: string | null;
  @TextColumn() BankAccountIban: string | null;
  @TextColumn() BankAccountBic: string | null;
  /** UNTDID 4461: 30 credit transfer, 58 SEPA credit transfer. */
  @IntColumn({ nullable: false, default: 58 }) PaymentMeansCode: number;
}
