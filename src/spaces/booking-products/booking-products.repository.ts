import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Database } from '../../persistence/database.js';
import { Booking } from '../bookings/booking.entity.js';

/** The SQL of booking products beyond the record machinery's own. */
@Injectable()
export class BookingProductsRepository {
  constructor(private readonly db: Database) {}

  /** The customer of the booking; null when the booking does not exist. */
  async customerOfBooking(bookingId: number, manager: EntityManager): Promise<number | null> {
    const { db } = this;
    const [booking] = await db.query(
      `SELECT ${db.id('CoworkerId')} AS c FROM ${db.tableOf(Booking)} WHERE ${db.id('Id')} = ?`,
      [bookingId],
      manager,
    );
    return booking ? Number(booking.c) : null;
  }
}
