import { Entity } from 'typeorm';
import { BoolColumn, DateTimeColumn, IntColumn, LongTextColumn, MoneyColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';
import { Coworker } from '../../customers/coworker.entity.js';
import { Tariff } from '../tariffs/tariff.entity.js';

/**
 * A customer's contract on a tariff (plan). It is active from StartDate until CancellationDate; a
 * customer with an active contract is a member, one without is a contact. One contract per customer
 * is its main one (IsPrimaryContract).
 */
@Entity('coworkercontract')
export class CoworkerContract extends RecordEntity {
  @IntColumn({ nullable: false, references: () => Coworker }) CoworkerId: number;
  @IntColumn({ nullable: false, references: () => Tariff }) TariffId: number;
  @DateTimeColumn({ nullable: false, index: true }) StartDate: Date;
  @DateTimeColumn({ index: true }) CancellationDate: Date | null;
  @MoneyColumn({ nullable: false }) Price: number;
  @LongTextColumn() Notes: string | null;
  @BoolColumn() IsPrimaryContract: boolean;
  /** Day of the month its periods start on, 1 to 28 (docs/billing.md). */
  @IntColumn({ nullable: false, default: 1 }) BillingDay: number;
  @BoolColumn({ default: true }) ApplyProRating: boolean;
  /** Billed up to this date, exclusive; null before its first invoice. Set by billing runs only. */
  @DateTimeColumn() InvoicedPeriod: Date | null;
  /** The start of the next period to bill (InvoicedPeriod, else the start); null when none is left. */
  @DateTimeColumn({ index: true }) RenewalDate: Date | null;
}
