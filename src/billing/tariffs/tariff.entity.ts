import { Entity } from 'typeorm';
import { BoolColumn, IntColumn, LongTextColumn, MoneyColumn, TextColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';
import { Business } from '../../kernel/businesses/business.entity.js';
import { Currency } from '../../kernel/currencies/currency.entity.js';

/** A pricing plan; a customer with a tariff has an active contract. */
@Entity('tariff')
export class Tariff extends RecordEntity {
  @IntColumn({ nullable: false, references: () => Business }) BusinessId: number;
  @TextColumn({ nullable: false, index: true }) Name: string;
  @MoneyColumn({ nullable: false }) Price: number;
  @IntColumn({ nullable: false, references: () => Currency }) CurrencyId: number;
  @LongTextColumn() Description: string | null;
  @BoolColumn() Visible: boolean;
  @BoolColumn() Archived: boolean;
  /** No foreign key: TaxRatesRules (tax-rates.rules.ts) refuses to delete a rate in use (docs/billing.md). */
  @IntColumn() TaxRateId: number | null;
  @IntColumn({ nullable: false, default: 1 }) InvoiceEvery: number;
}
