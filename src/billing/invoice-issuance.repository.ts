import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AnyClass } from '../common/columns.js';
import { Database } from '../common/database.js';

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
  async nextNumber(series: InvoiceSeries, businessId: number, manager: EntityManager): Promise<string> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const table = q('invoice_sequence');
    const upsert = db.isMySql
      ? `INSERT INTO ${table} (${q('Series')}, ${q('BusinessId')}, ${q('LastNumber')}) VALUES (?, ?, 1) ON DUPLICATE KEY UPDATE ${q('LastNumber')} = ${q('LastNumber')} + 1`
      : `INSERT INTO ${table} (${q('Series')}, ${q('BusinessId')}, ${q('LastNumber')}) VALUES (?, ?, 1) ON CONFLICT (${q('Series')}, ${q('BusinessId')}) DO UPDATE SET ${q('LastNumber')} = ${q('LastNumber')} + 1`;
    await db.query(upsert, [series, businessId], manager);
    // The transaction's own write is visible to it, whatever its isolation level.
    const [row] = await db.query<{ n: unknown }>(`SELECT ${q('LastNumber')} AS n FROM ${table} WHERE ${q('Series')} = ? AND ${q('BusinessId')} = ?`, [series, businessId], manager);
    return String(Number(row.n));
  }

  /** One column of the record `id` points at (null when there is no id or no such record). */
  async lookup(entity: AnyClass, id: unknown, column: string, manager: EntityManager): Promise<unknown> {
    if (id === null || id === undefined) return null;
    const { db } = this;
    const [row] = await db.query<{ v: unknown }>(`SELECT ${db.id(column)} AS v FROM ${db.tableOf(entity)} WHERE ${db.id('Id')} = ?`, [id], manager);
    return row?.v ?? null;
  }
}
