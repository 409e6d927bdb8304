import { Entity, Index } from 'typeorm';
import { BoolColumn, DateTimeColumn, IntColumn, LongTextColumn, MoneyColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';
import { Business } from '../../kernel/businesses/business.entity.js';
import { Coworker } from '../../customers/coworker.entity.js';
import { Resource } from '../resources/resource.entity.js';

/** eBookingCancellationReason (docs/api.md §13): why a booking was cancelled. */
export const BookingCancellationReason = {
  Unknown: 0,
  NoLongerNeeded: 1,
  TooExpensive: 2,
  BadPreviousExperience: 3,
  RebookedForADifferentTime: 4,
  FailedToPayUpfront: 5,
  Integration: 6,
  Other: 7,
  NotCheckedIn: 8,
  MarketPlace: 9,
} as const;

/**
 * A customer's booking of a resource over [FromTime, ToTime) (docs/bookings.md). Price, CreditUsed
 * and ChargeAmount are set by the booking rules; BusinessId is the resource's, kept for scoping.
 */
@Entity('booking')
// A resource's bookings by end: the overlap check of every booking write reads those ending after its start.
@Index(['ResourceId', 'ToTime'])
export class Booking extends RecordEntity {
  @IntColumn({ nullable: false, references: () => Resource }) ResourceId: number;
  @IntColumn({ nullable: false, references: () => Coworker }) CoworkerId: number;
  @IntColumn({ nullable: false, references: () => Business }) BusinessId: number;
  @DateTimeColumn({ nullable: false, index: true }) FromTime: Date;
  @DateTimeColumn({ nullable: false }) ToTime: Date;
  @BoolColumn() Tentative: boolean;
  @LongTextColumn() Notes: string | null;
  @BoolColumn() DoNotUseBookingCredit: boolean;
  @MoneyColumn({ nullable: false, default: 0 }) Price: number;
  @MoneyColumn({ nullable: false, default: 0 }) CreditUsed: number;
  @MoneyColumn({ nullable: false, default: 0 }) ChargeAmount: number;
  @BoolColumn() Invoiced: boolean;
  /** The customer invoice that billed ChargeAmount (docs/api.md §9.2 item 5). */
  @IntColumn() CoworkerInvoiceId: number | null;
}
