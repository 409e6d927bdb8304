import { Entity } from 'typeorm';
import { BoolColumn, IntColumn, MoneyColumn } from '../../common/columns.js';
import { RecordEntity } from '../../common/record.entity.js';
import { Coworker } from '../../billing/coworkers/coworker.entity.js';
import { CoworkerBookingCredit } from '../coworker-booking-credits/coworker-booking-credit.entity.js';

/**
 * One spend of a booking credit by a booking (docs/bookings.md): CreditUsed was taken from the credit's
 * RemainingCredit; Returned once given back (the booking moved or was cancelled). The booking is named
 * by its Id, not a foreign key: the record outlives a cancelled booking. It goes with its credit.
 */
@Entity('coworkerbookingcredituse')
export class CoworkerBookingCreditUseHistory extends RecordEntity {
  @IntColumn({ nullable: false, references: () => CoworkerBookingCredit, onDelete: 'CASCADE' }) CoworkerBookingCreditId: number;
  @IntColumn({ nullable: false, index: true }) BookingId: number;
  @MoneyColumn({ nullable: false, default: 0 }) CreditUsed: number;
  @BoolColumn() Returned: boolean;
  @IntColumn({ nullable: false, references: () => Coworker }) CoworkerId: number;
}
