import { Entity } from 'typeorm';
import { BoolColumn, IntColumn, LongTextColumn, MoneyColumn, TextColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';
import { Business } from '../../kernel/businesses/business.entity.js';
import { Currency } from '../../kernel/currencies/currency.entity.js';
import { ResourceType } from '../resource-types/resource-type.entity.js';

/**
 * Something customers book (docs/bookings.md): at most Allocation bookings may cover it at any
 * instant; a booking costs HourlyPrice per hour, paid with booking credits first.
 */
@Entity('resource')
export class Resource extends RecordEntity {
  @IntColumn({ nullable: false, references: () => Business }) BusinessId: number;
  @TextColumn({ nullable: false, index: true }) Name: string;
  @IntColumn({ nullable: false, references: () => ResourceType }) ResourceTypeId: number;
  @LongTextColumn() Description: string | null;
  @IntColumn({ nullable: false, default: 1 }) Allocation: number;
  @BoolColumn({ default: true }) Visible: boolean;
  @BoolColumn() Archived: boolean;
  @BoolColumn() OnlyForMembers: boolean;
  @MoneyColumn({ nullable: false, default: 0 }) HourlyPrice: number;
  @IntColumn({ nullable: false, references: () => Currency }) CurrencyId: number;
  /** A tax rate of the resource's business: what its booking charges are billed with. */
  @IntColumn() TaxRateId: number | null;
  @IntColumn() MinBookingMinutes: number | null;
  @IntColumn() MaxBookingMinutes: number | null;
  /**
   * Raised by every booking written for the resource, never sent: the write that serialises its
   * bookings (an UPDATE of this row waits for the one before to commit, and Galera certification orders
   * it across nodes), so that no two overlapping bookings are checked at once (docs/bookings.md).
   */
  @IntColumn({ nullable: false, default: 0 }) BookingSequence: number;
}
