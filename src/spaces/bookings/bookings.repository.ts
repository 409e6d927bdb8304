import { Injectable } from '@nestjs/common';
import { inList } from '../../billing/due-items/due-items.js';
import { Database } from '../../persistence/database.js';
import { toUnits } from '../../kernel/money.js';
import { parseDbDateTime, toWire } from '../../records/wire-values.js';
import { Coworker } from '../../customers/coworker.entity.js';
import { Resource } from '../resources/resource.entity.js';
import { BookingProduct } from '../booking-products/booking-product.entity.js';
import type { BookedResource } from './booking-rules.js';
import { Booking } from './booking.entity.js';
import type { Tx } from '../../persistence/tx.js';

/**
 * The SQL of bookings beyond the machinery's own (docs/bookings.md), inside the booking's transaction
 * when given one. Hand-built on the driver: every booking write runs it.
 */
@Injectable()
export class BookingsRepository {
  constructor(private readonly db: Database) {}

  /**
   * Serialises the bookings of a resource: an UPDATE of its row, which waits for any other booking
   * write of the resource to commit (MySQL row lock; Galera certification orders it across nodes;
   * SQLite has one writer). False when there is no such resource.
   */
  async lockResource(resourceId: number, tx: Tx): Promise<boolean> {
    const { db } = this;
    const sequence = db.id('BookingSequence');
    // On Galera two nodes' bookings could take the same turn and miss each other: the turn keeps one (Database.runGuarded).
    return db.runGuarded(`UPDATE ${db.tableOf(Resource)} SET ${sequence} = ${sequence} + 1 WHERE ${db.id('Id')} = ?`, [resourceId], tx, {
      entity: Resource,
      id: resourceId,
      turn: 'BookingSequence',
    });
  }

  /**
   * Holds the booking's row for the transaction while it is not invoiced: the UPDATE changes nothing
   * but waits for an invoice run's claim of the row (or a concurrent delete) to commit, then sees it,
   * so a move or delete never overtakes the billing of it. 'held', else why not: 'invoiced', or 'gone'
   * when a concurrent cancel, delete or move took it first (its loser is told the truth: bookings.md).
   */
  async holdUninvoiced(bookingId: number, tx: Tx): Promise<'held' | 'invoiced' | 'gone'> {
    const { db } = this;
    const invoiced = db.id('Invoiced');
    const result = await db.run(
      `UPDATE ${db.tableOf(Booking)} SET ${invoiced} = 0 WHERE ${db.id('Id')} = ? AND ${invoiced} = 0`,
      [bookingId],
      tx,
    );
    if (result.affected === 1) return 'held';
    // A locking read on MySQL: it sees the latest committed row, not the transaction's snapshot.
    const [row] = await db.query(
      `SELECT ${db.id('Id')} FROM ${db.tableOf(Booking)} WHERE ${db.id('Id')} = ?${db.isMySql ? ' FOR UPDATE' : ''}`,
      [bookingId],
      tx,
    );
    return row ? 'invoiced' : 'gone';
  }

  async resource(resourceId: number, tx?: Tx): Promise<BookedResource | null> {
    const { db } = this;
    const names = [
      'Name',
      'BusinessId',
      'ResourceTypeId',
      'Archived',
      'OnlyForMembers',
      'Allocation',
      'HourlyPrice',
      'MinBookingMinutes',
      'MaxBookingMinutes',
    ];
    const [row] = await db.query(
      `SELECT ${names.map((name) => db.id(name)).join(', ')} FROM ${db.tableOf(Resource)} WHERE ${db.id('Id')} = ?`,
      [resourceId],
      tx,
    );
    if (!row) return null;
    const optional = (value: unknown) => (value === null || value === undefined ? null : Number(value));
    return {
      Id: resourceId,
      Name: String(row.Name),
      BusinessId: Number(row.BusinessId),
      ResourceTypeId: Number(row.ResourceTypeId),
      Archived: toWire('bool', row.Archived) as boolean,
      OnlyForMembers: toWire('bool', row.OnlyForMembers) as boolean,
      Allocation: Number(row.Allocation),
      HourlyPrice: toUnits(row.HourlyPrice),
      MinBookingMinutes: optional(row.MinBookingMinutes),
      MaxBookingMinutes: optional(row.MaxBookingMinutes),
    };
  }

  async customer(coworkerId: number, tx?: Tx): Promise<{ Id: number; BusinessId: number; FullName: string } | null> {
    const { db } = this;
    const [row] = await db.query(
      `SELECT ${db.id('BusinessId')} AS b, ${db.id('FullName')} AS n FROM ${db.tableOf(Coworker)} WHERE ${db.id('Id')} = ?`,
      [coworkerId],
      tx,
    );
    return row ? { Id: coworkerId, BusinessId: Number(row.b), FullName: String(row.n) } : null;
  }

  /** The resource's other bookings that overlap [from, to): [start, end) in milliseconds, and their Id. */
  async overlapping(resourceId: number, from: Date, to: Date, exceptId: number, tx?: Tx): Promise<Array<[number, number, number]>> {
    const { db } = this;
    const rows = await db.query(
      `SELECT ${db.id('Id')} AS i, ${db.id('FromTime')} AS f, ${db.id('ToTime')} AS t FROM ${db.tableOf(Booking)} ` +
        `WHERE ${db.id('ResourceId')} = ? AND ${db.id('FromTime')} < ? AND ${db.id('ToTime')} > ? AND ${db.id('Id')} <> ?`,
      [resourceId, db.dateParam(to), db.dateParam(from), exceptId],
      tx,
    );
    return rows.map((row) => [parseDbDateTime(row.f)!, parseDbDateTime(row.t)!, Number(row.i)]);
  }

  /** The business of a resource; null when there is none. */
  async resourceBusiness(resourceId: unknown, tx?: Tx): Promise<number | null> {
    const { db } = this;
    const [row] = await db.query(
      `SELECT ${db.id('BusinessId')} AS b FROM ${db.tableOf(Resource)} WHERE ${db.id('Id')} = ?`,
      [resourceId],
      tx,
    );
    return row ? Number(row.b) : null;
  }

  /** The ids of a booking's products, in order. */
  async productIds(bookingId: number, tx: Tx): Promise<number[]> {
    const { db } = this;
    const rows = await db.query(
      `SELECT ${db.id('Id')} AS id FROM ${db.tableOf(BookingProduct)} WHERE ${db.id('BookingId')} = ? ORDER BY ${db.id('Id')}`,
      [bookingId],
      tx,
    );
    return rows.map((row) => Number(row.id));
  }

  /**
   * The customer's bookings billing has due (docs/billing.md "Item sources"): starting before `before`,
   * not invoiced, not tentative, with a charge; read as FlagClaims.item reads a record billed whole.
   */
  dueForBilling(customerIds: readonly number[], before: Date, tx: Tx | undefined): Promise<Array<Record<string, unknown>>> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    return db.query(
      `SELECT b.${q('Id')} AS id, b.${q('CoworkerId')} AS coworker, b.${q('UniqueId')} AS uniqueId, b.${q('Version')} AS version, b.${q('FromTime')} AS fromTime, b.${q('ToTime')} AS toTime, ` +
        `b.${q('ChargeAmount')} AS amount, r.${q('Name')} AS resource, r.${q('TaxRateId')} AS taxRate, r.${q('CurrencyId')} AS currency ` +
        `FROM ${db.tableOf(Booking)} b JOIN ${db.tableOf(Resource)} r ON r.${q('Id')} = b.${q('ResourceId')} ` +
        `WHERE b.${q('CoworkerId')} ${inList(customerIds)} AND b.${q('Invoiced')} = 0 AND b.${q('Tentative')} = 0 AND b.${q('ChargeAmount')} > 0 AND b.${q('FromTime')} < ? ` +
        `ORDER BY b.${q('CoworkerId')}, b.${q('FromTime')}, b.${q('Id')}`,
      [...customerIds, db.dateParam(before)],
      tx,
    );
  }
}
