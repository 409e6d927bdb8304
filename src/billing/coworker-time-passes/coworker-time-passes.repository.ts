import { Injectable } from '@nestjs/common';
import { inList } from '../due-items/due-items.js';
import { Database } from '../../persistence/database.js';
import { toWire } from '../../records/wire-values.js';
import { wholeSecond } from '../coworker-booking-credits/coworker-booking-credits.service.js';
import { TimePass } from '../time-passes/time-pass.entity.js';
import { CoworkerTimePass } from './coworker-time-pass.entity.js';
import { holdUnbilled } from '../due-items/flag-claims.js';
import { updateStampParameters, updateStampSql } from '../../records/audit-stamp.js';
import type { Tx } from '../../persistence/tx.js';

/** What the presence rules read of a TimePass. */
export interface PassKind {
  Id: number;
  BusinessId: number;
  Name: string;
  /** As the driver gives the decimal (text on MySQL). */
  Price: number | string;
  Archived: boolean;
  ValidityDays: number | null;
}

/** A customer's pass as a claim names it. */
export interface ClaimedPass {
  Id: number;
  UniqueId: string;
}

/** How many unused passes one read offers a check-in: the first one nobody claimed meanwhile is used. */
const CANDIDATES = 5;

/**
 * The SQL of passes beyond the machinery's own (docs/presence.md), inside the writing transaction.
 * Every change of `Used` is one conditional UPDATE of the pass's row, so on any instance or Galera node
 * a pass is used once: a second claim waits for the first to commit (or fails certification) and then
 * changes nothing.
 */
@Injectable()
export class CoworkerTimePassesRepository {
  constructor(private readonly db: Database) {}

  async passKind(timePassId: number, tx?: Tx): Promise<PassKind | null> {
    const { db } = this;
    const [row] = await db.query(
      `SELECT ${['BusinessId', 'Name', 'Price', 'Archived', 'ValidityDays'].map((name) => db.id(name)).join(', ')} FROM ${db.tableOf(TimePass)} WHERE ${db.id('Id')} = ?`,
      [timePassId],
      tx,
    );
    return row ? this.kindOf(timePassId, row) : null;
  }

  /** The business's pay-as-you-go TimePass: PaygContacts, not archived, the lowest UsePriority (null last), then the lowest Id. */
  async payAsYouGo(businessId: number, tx: Tx): Promise<PassKind | null> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const [row] = await db.query(
      `SELECT ${q('Id')} AS id, ${['BusinessId', 'Name', 'Price', 'Archived', 'ValidityDays'].map(q).join(', ')} FROM ${db.tableOf(TimePass)} ` +
        `WHERE ${q('BusinessId')} = ? AND ${q('PaygContacts')} = 1 AND ${q('Archived')} = 0 ` +
        `ORDER BY CASE WHEN ${q('UsePriority')} IS NULL THEN 1 ELSE 0 END, ${q('UsePriority')}, ${q('Id')} LIMIT 1`,
      [businessId],
      tx,
    );
    return row ? this.kindOf(Number(row.id), row) : null;
  }

  private kindOf(id: number, row: Record<string, unknown>): PassKind {
    return {
      Id: id,
      BusinessId: Number(row.BusinessId),
      Name: String(row.Name),
      Price: row.Price as number | string,
      Archived: toWire('bool', row.Archived) as boolean,
      ValidityDays: row.ValidityDays === null || row.ValidityDays === undefined ? null : Number(row.ValidityDays),
    };
  }

  /**
   * The customer's valid passes of the business at `at` (not used, ExpireDate null or not before it),
   * in the order a check-in uses them: the earliest ExpireDate first, none last, then the lowest Id.
   */
  async validPasses(coworkerId: number, businessId: number, at: Date, tx: Tx): Promise<ClaimedPass[]> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    // Two reads, each in the order of the index (CoworkerId, Used, ExpireDate), which ends with the Id:
    // passes that expire, then those that never do. A customer may hold thousands of passes.
    const select = (expiry: string, order: string, parameters: unknown[]) =>
      db.query(
        `SELECT ${q('Id')} AS id, ${q('UniqueId')} AS uid FROM ${db.tableOf(CoworkerTimePass)} ` +
          `WHERE ${q('CoworkerId')} = ? AND ${q('Used')} = 0 AND ${expiry} AND ${q('BusinessId')} = ? ORDER BY ${order} LIMIT ${CANDIDATES}`,
        parameters,
        tx,
      );
    let rows = await select(`${q('ExpireDate')} >= ?`, `${q('ExpireDate')}, ${q('Id')}`, [coworkerId, db.dateParam(at), businessId]);
    if (!rows.length) rows = await select(`${q('ExpireDate')} IS NULL`, q('Id'), [coworkerId, businessId]);
    return rows.map((row) => ({ Id: Number(row.id), UniqueId: String(row.uid) }));
  }

  /** Marks the pass used at `at` while nobody has: whether this call did. */
  async claim(id: number, at: Date, by: string | null, tx: Tx): Promise<boolean> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    // On Galera two nodes' check-ins could both find the pass unused: the turn keeps one (Database.runGuarded).
    return db.runGuarded(
      `UPDATE ${db.tableOf(CoworkerTimePass)} SET ${q('Used')} = 1, ${q('UsedDate')} = ?, ${this.stamp()} WHERE ${q('Id')} = ? AND ${q('Used')} = 0`,
      [db.dateParam(wholeSecond(at)), ...updateStampParameters((date) => db.dateParam(date), by), id],
      tx,
      { entity: CoworkerTimePass, id: id },
    );
  }

  /**
   * Holds a used pass for a check-in of its day that uses it again: a write that changes nothing but
   * waits for a concurrent give-back or delete of the pass to commit. The pass's Id, or null when it is
   * no longer used (or gone).
   */
  async holdUsed(uniqueId: string, tx: Tx): Promise<number | null> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const result = await db.run(
      `UPDATE ${db.tableOf(CoworkerTimePass)} SET ${q('Used')} = 1 WHERE ${q('UniqueId')} = ? AND ${q('Used')} = 1`,
      [uniqueId],
      tx,
    );
    if (result.affected !== 1) return null;
    return this.idOf(uniqueId, tx);
  }

  /** Marks a used pass unused again, unless it was billed: its Id when it did. */
  async giveBack(uniqueId: string, by: string | null, tx: Tx): Promise<number | null> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const id = await this.idOf(uniqueId, tx);
    if (id === null) return null;
    const result = await db.run(
      `UPDATE ${db.tableOf(CoworkerTimePass)} SET ${q('Used')} = 0, ${q('UsedDate')} = NULL, ${this.stamp()} WHERE ${q('Id')} = ? AND ${q('Used')} = 1 AND ${q('Invoiced')} = 0`,
      [...updateStampParameters((date) => db.dateParam(date), by), id],
      tx,
    );
    return result.affected === 1 ? id : null;
  }

  /** Holds a pass's row while it is not billed (holdUnbilled): false when it is billed (or gone). */
  holdUnbilled(id: number, tx: Tx): Promise<boolean> {
    return holdUnbilled(this.db, CoworkerTimePass, id, tx);
  }

  async idOf(uniqueId: string, tx: Tx): Promise<number | null> {
    const { db } = this;
    const [row] = await db.query(
      `SELECT ${db.id('Id')} AS id FROM ${db.tableOf(CoworkerTimePass)} WHERE ${db.id('UniqueId')} = ?`,
      [uniqueId],
      tx,
    );
    return row ? Number(row.id) : null;
  }

  /** Writes passes in one INSERT (the entity's column transformers apply); their ids in order. */
  async insertMany(rows: ReadonlyArray<Record<string, unknown>>, tx: Tx): Promise<number[]> {
    if (!rows.length) return [];
    await this.db.insertEntities(CoworkerTimePass, rows, tx);
    const { db } = this;
    const marks = rows.map(() => '?').join(', ');
    const found = await db.query(
      `SELECT ${db.id('Id')} AS id FROM ${db.tableOf(CoworkerTimePass)} WHERE ${db.id('UniqueId')} IN (${marks}) ORDER BY ${db.id('Id')}`,
      rows.map((row) => row.UniqueId),
      tx,
    );
    return found.map((row) => Number(row.id));
  }

  /** The record stamp of a change the rules make (UpdatedOn, UpdatedBy and the version). */
  private stamp(): string {
    return updateStampSql((name) => this.db.id(name));
  }

  /**
   * The customer's passes billing has due (docs/billing.md "Item sources"): sold before `before`, not
   * invoiced, not free, with a price; read as FlagClaims.item reads a record billed whole.
   */
  dueForBilling(customerIds: readonly number[], before: Date, tx: Tx | undefined): Promise<Array<Record<string, unknown>>> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    return db.query(
      `SELECT p.${q('Id')} AS id, p.${q('CoworkerId')} AS coworker, p.${q('UniqueId')} AS uniqueId, p.${q('Version')} AS version, p.${q('SaleDate')} AS saleDate, p.${q('Price')} AS amount, p.${q('TimePassId')} AS timePass, ` +
        `t.${q('Name')} AS name, t.${q('InvoiceDisplay')} AS display, t.${q('TaxRateId')} AS taxRate, t.${q('CurrencyId')} AS currency ` +
        `FROM ${db.tableOf(CoworkerTimePass)} p JOIN ${db.tableOf(TimePass)} t ON t.${q('Id')} = p.${q('TimePassId')} ` +
        `WHERE p.${q('CoworkerId')} ${inList(customerIds)} AND p.${q('Invoiced')} = 0 AND p.${q('Free')} = 0 AND p.${q('Price')} > 0 AND p.${q('SaleDate')} < ? ` +
        `ORDER BY p.${q('CoworkerId')}, p.${q('SaleDate')}, p.${q('Id')}`,
      [...customerIds, db.dateParam(before)],
      tx,
    );
  }

  /** The id of a check-in that used the pass (by its UniqueId); null when none did. */
  async checkinUsing(passUniqueId: unknown, tx: Tx): Promise<number | null> {
    const { db } = this;
    const [checkin] = await db.query(
      `SELECT ${db.id('Id')} AS id FROM ${db.id('checkin')} WHERE ${db.id('CoworkerTimePassGuid')} = ? LIMIT 1`,
      [passUniqueId],
      tx,
    );
    return checkin ? Number(checkin.id) : null;
  }
}
