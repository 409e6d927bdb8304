import { Injectable } from '@nestjs/common';
import { Database } from '../../persistence/database.js';
import { Booking } from '../bookings/booking.entity.js';
import type { Tx } from '../../persistence/tx.js';

/** The SQL of booking products beyond the record machinery's own. */
@Injectable()
export class BookingProductsRepository {
  constructor(private readonly db: Database) {}

  /** The customer of the booking; null when the booking does not exist. */
  async customerOfBooking(bookingId: number, tx: Tx): Promise<number | null> {
    const { db } = this;
    const [booking] = await db.query(
      `SELECT ${db.id('CoworkerId')} AS c FROM ${db.tableOf(Booking)} WHERE ${db.id('Id')} = ?`,
      [bookingId],
      tx,
    );
    return booking ? Number(booking.c) : null;
  }
}
