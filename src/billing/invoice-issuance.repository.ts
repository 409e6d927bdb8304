import { Injectable } from '@nestjs/common';
import type { AnyClass } from '../records/columns.js';
import { Database } from '../persistence/database.js';
import type { Tx } from '../persistence/tx.js';

/** Each kind of invoice is numbered in its own series, per business. */
export type InvoiceSeries = 'Invoice' | 'CoworkerInvoice';

/**
 * The SQL both kinds of invoice run at issuance (docs/api.md §3.1), inside the issuing transaction.
 * Hand-built: the numbering upsert has no query-builder form on both databases, and holds the lock
 * that every issuer of the business waits for, so it stays as short as it can be.
 */
@Injectable()
export class InvoiceIssuanceRepository {
  constructor(private readonly db: Database) {}

  /**
   * The next number of a business's series.
   *
   * The counter lives in invoice_sequence (Series, BusinessId) → LastNumber. One upsert creates the
   * row at 1 or bumps it by one, and holds the row's write lock until the transaction ends, so
   * concurrent issuers on any number of instances take turns: numbers are unique and sequential with
   * no gaps, a rolled-back issuance gives its number back, and the counter never goes down, so a
   * number is never reused (not even after a customer invoice is deleted).
   *
   * InvoiceNumber is this sequence number written as plain decimal text: "1", "2", ….
   */
  async nextNumber(series: InvoiceSeries, businessId: number, tx: Tx): Promise<string> {
    return String(await this.advance(series, businessId, '1', [], tx));
  }

  /**
   * The next `count` numbers of a business's series, in order, from ONE move of its counter (a billing
   * run's batch: docs/billing.md "Exactly once"), with the guarantees of `nextNumber`.
   */
  async nextNumbers(series: InvoiceSeries, businessId: number, count: number, tx: Tx): Promise<string[]> {
    const last = await this.advance(series, businessId, '?', [count, count], tx);
    return Array.from({ length: count }, (_, i) => String(last - count + 1 + i));
  }

  /** Moves the counter by `step` (SQL: a literal or a parameter, given in `steps` twice), holding its row: the last number now. */
  private async advance(series: InvoiceSeries, businessId: number, step: string, steps: number[], tx: Tx): Promise<number> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const table = q('invoice_sequence');
    const upsert = db.isMySql
      ? `INSERT INTO ${table} (${q('Series')}, ${q('BusinessId')}, ${q('LastNumber')}) VALUES (?, ?, ${step}) ON DUPLICATE KEY UPDATE ${q('LastNumber')} = ${q('LastNumber')} + ${step}`
      : `INSERT INTO ${table} (${q('Series')}, ${q('BusinessId')}, ${q('LastNumber')}) VALUES (?, ?, ${step}) ON CONFLICT (${q('Series')}, ${q('BusinessId')}) DO UPDATE SET ${q('LastNumber')} = ${q('LastNumber')} + ${step}`;
    await db.query(upsert, [series, businessId, ...steps], tx);
    // The transaction's own write is visible to it, whatever its isolation level.
    const [row] = await db.query<{ n: unknown }>(
      `SELECT ${q('LastNumber')} AS n FROM ${table} WHERE ${q('Series')} = ? AND ${q('BusinessId')} = ?`,
      [series, businessId],
      tx,
    );
    return Number(row.n);
  }

  /** One column of the record `id` points at (null when there is no id or no such record). */
  async lookup(entity: AnyClass, id: unknown, column: string, tx: Tx): Promise<unknown> {
    if (id === null || id === undefined) return null;
    const { db } = this;
    const [row] = await db.query<{ v: unknown }>(
      `SELECT ${db.id(column)} AS v FROM ${db.tableOf(entity)} WHERE ${db.id('Id')} = ?`,
      [id],
      tx,
    );
    return row?.v ?? null;
  }
}
