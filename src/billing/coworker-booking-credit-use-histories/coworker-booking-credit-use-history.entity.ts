import { Entity } from 'typeorm';
import { BoolColumn, IntColumn, MoneyColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';
import { Coworker } from '../../customers/coworker.entity.js';
import { CoworkerBookingCredit } from '../coworker-booking-credits/coworker-booking-credit.entity.js';

/**
 * One spend of a credit by a booking (docs/bookings.md) or, for a universal credit, on an invoice line
 * (docs/billing.md "Universal credits"): CreditUsed was taken from the credit's RemainingCredit;
 * Returned once given back (the booking moved or was cancelled, the invoice deleted). The booking and
 * the line are named by their Id, not a foreign key: the record outlives them. It goes with its credit.
 */
@Entity('coworkerbookingcredituse')
export class CoworkerBookingCreditUseHistory extends RecordEntity {
  @IntColumn({ nullable: false, references: () => CoworkerBookingCredit, onDelete: 'CASCADE' }) CoworkerBookingCreditId: number;
  /** Null for a spend on an invoice line. */
  @IntColumn({ index: true }) BookingId: number | null;
  /** The invoice line it paid; null for a booking's spend. */
  @IntColumn({ index: true }) CoworkerInvoiceLineId: number | null;
  @MoneyColumn({ nullable: false, default: 0 }) CreditUsed: number;
  @BoolColumn() Returned: boolean;
  @IntColumn({ nullable: false, references: () => Coworker }) CoworkerId: number;
}
