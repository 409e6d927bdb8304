import { Entity } from 'typeorm';
import { IntColumn, TextColumn } from '../records/columns.js';
import { RecordEntity } from '../records/record.entity.js';
import { Business } from '../kernel/businesses/business.entity.js';
import { Country } from '../kernel/countries/country.entity.js';

export const CoworkerType = { Individual: 1, Company: 2 } as const;

/**
 * A customer of a business. Its plans are its contracts (coworkercontract): with an active one the
 * customer is a member, without one a contact.
 */
@Entity('coworker')
export class Coworker extends RecordEntity {
  @IntColumn({ nullable: false, references: () => Business }) BusinessId: number;
  @TextColumn({ nullable: false, index: true }) FullName: string;
  @TextColumn({ nullable: false, index: true }) Email: string;
  @IntColumn() CoworkerType: number | null;
  @TextColumn() Salutation: string | null;
  @TextColumn() CompanyName: string | null;
  @TextColumn() BillingName: string | null;
  @TextColumn() BillingEmail: string | null;
  @TextColumn() Address: string | null;
  @TextColumn() City: string | null;
  @TextColumn() PostCode: string | null;
  @IntColumn({ references: () => Country }) CountryId: number | null;
  @TextColumn() TaxIDNumber: string | null;
  /** BT-10 of its e-invoices (docs/einvoices.md), e.g. a Leitweg-ID. */
  @TextColumn() BuyerReference: string | null;
  @TextColumn() MobilePhone: string | null;
  // Door access: what access-control systems match a customer by.
  @TextColumn({ index: true }) KeyFobNumber: string | null;
  @TextColumn({ index: true }) AccessCardId: string | null;
  @TextColumn() AccessPincode: string | null;
  /**
   * Bumped first by every transaction that bills the customer (never on the wire): billing runs for
   * one customer write this row in common, so they take turns, across Galera nodes too (docs/billing.md).
   */
  @IntColumn({ nullable: false, default: 0 }) BillingSequence: number;
}
