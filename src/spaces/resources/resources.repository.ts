import { Injectable } from '@nestjs/common';
import { Database } from '../../persistence/database.js';
import { Business } from '../../kernel/businesses/business.entity.js';
import { Booking } from '../bookings/booking.entity.js';
import type { Tx } from '../../persistence/tx.js';

/** The SQL of resources beyond the record machinery's own. */
@Injectable()
export class ResourcesRepository {
  constructor(private readonly db: Database) {}

  /** The business's currency; null when the business does not exist. */
  async currencyOfBusiness(businessId: unknown, tx: Tx): Promise<number | null> {
    const { db } = this;
    const [business] = await db.query<{ c: number }>(
      `SELECT ${db.id('CurrencyId')} AS c FROM ${db.tableOf(Business)} WHERE ${db.id('Id')} = ?`,
      [businessId],
      tx,
    );
    return business ? Number(business.c) : null;
  }

  /** Whether the resource has a booking. */
  async hasBookings(resourceId: unknown, tx: Tx): Promise<boolean> {
    const { db } = this;
    const [booked] = await db.query(`SELECT 1 AS x FROM ${db.tableOf(Booking)} WHERE ${db.id('ResourceId')} = ? LIMIT 1`, [resourceId], tx);
    return Boolean(booked);
  }
}
