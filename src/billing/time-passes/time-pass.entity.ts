import { Entity } from 'typeorm';
import { BoolColumn, IntColumn, MoneyColumn, TextColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';
import { Business } from '../../kernel/businesses/business.entity.js';
import { Currency } from '../../kernel/currencies/currency.entity.js';

/**
 * A kind of pass a business sells (docs/presence.md): customers without a contract come in on its
 * passes (CoworkerTimePass). With PaygContacts it is sold at the door, pay-as-you-go.
 */
@Entity('timepass')
export class TimePass extends RecordEntity {
  @IntColumn({ nullable: false, references: () => Business }) BusinessId: number;
  @TextColumn({ nullable: false, index: true }) Name: string;
  @MoneyColumn({ nullable: false }) Price: number;
  @IntColumn({ nullable: false, references: () => Currency }) CurrencyId: number;
  /** The text of its invoice line; null: the Name. */
  @TextColumn() InvoiceDisplay: string | null;
  @IntColumn() TaxRateId: number | null;
  @BoolColumn() PaygContacts: boolean;
  @BoolColumn() PaygMembers: boolean;
  @IntColumn() UsePriority: number | null;
  /** A pass made without ExpireDate expires this many days after its SaleDate; null: never. */
  @IntColumn() ValidityDays: number | null;
  @IntColumn() MinutesIncluded: number | null;
  @BoolColumn() Archived: boolean;
}
