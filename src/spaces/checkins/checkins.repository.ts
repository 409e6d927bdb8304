import { Injectable } from '@nestjs/common';
import { Database } from '../../persistence/database.js';
import { Checkin } from './checkin.entity.js';
import type { Tx } from '../../persistence/tx.js';

/** The open key of a customer's check-in at a business: unique while open (the index UQ_checkin_OpenKey). */
export const openKeyOf = (coworkerId: number, businessId: number) => `${coworkerId}/${businessId}`;

/** The SQL of check-ins beyond the machinery's own (docs/presence.md), inside the check-in's transaction. */
@Injectable()
export class CheckinsRepository {
  constructor(private readonly db: Database) {}

  /** The open check-in with this key other than `exceptId`: its Id, or null. */
  async openCheckin(openKey: string, exceptId: number, tx: Tx): Promise<number | null> {
    const { db } = this;
    const [row] = await db.query(
      `SELECT ${db.id('Id')} AS id FROM ${db.tableOf(Checkin)} WHERE ${db.id('OpenKey')} = ? AND ${db.id('Id')} <> ?`,
      [openKey, exceptId],
      tx,
    );
    return row ? Number(row.id) : null;
  }

  /** The pass an earlier check-in of the customer at the business used on the UTC day of `at`; null when none did. */
  async passOfTheDay(coworkerId: number, businessId: number, at: Date, tx: Tx): Promise<string | null> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const day = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
    const [row] = await db.query(
      `SELECT ${q('CoworkerTimePassGuid')} AS pass FROM ${db.tableOf(Checkin)} ` +
        `WHERE ${q('CoworkerId')} = ? AND ${q('FromTime')} >= ? AND ${q('FromTime')} < ? AND ${q('BusinessId')} = ? AND ${q('CoworkerTimePassGuid')} IS NOT NULL ` +
        `ORDER BY ${q('FromTime')}, ${q('Id')} LIMIT 1`,
      [coworkerId, db.dateParam(new Date(day)), db.dateParam(new Date(day + 86_400_000)), businessId],
      tx,
    );
    return row ? String(row.pass) : null;
  }

  /** Whether a check-in other than `exceptId` records the pass. */
  async recordsPass(passUniqueId: string, exceptId: number, tx: Tx): Promise<boolean> {
    const { db } = this;
    const [row] = await db.query(
      `SELECT 1 AS x FROM ${db.tableOf(Checkin)} WHERE ${db.id('CoworkerTimePassGuid')} = ? AND ${db.id('Id')} <> ? LIMIT 1`,
      [passUniqueId, exceptId],
      tx,
    );
    return Boolean(row);
  }
}
