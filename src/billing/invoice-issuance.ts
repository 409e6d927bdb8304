import type { EntityManager } from 'typeorm';
import type { AnyClass } from '../common/columns.js';
import type { Database } from '../common/database.js';
import { RecordValidationException } from '../common/errors.js';
import type { WireRecord } from '../common/record-definition.js';

// What both kinds of invoice share at issuance (docs/api.md §3.1): the invoice number, and the
// snapshot of values copied from other records so that later edits to those records never reach it.

/** Each kind of invoice is numbered in its own series, per business. */
export type InvoiceSeries = 'Invoice' | 'CoworkerInvoice';

/**
 * The next number of a business's series, taken inside the issuing transaction.
 *
 * The counter lives in invoice_sequence (Series, BusinessId) → LastNumber. One upsert creates the
 * row at 1 or bumps it by one, and holds the row's write lock until the transaction ends, so
 * concurrent issuers on any number of instances take turns: numbers are unique and sequential with
 * no gaps, a rolled-back issuance gives its number back, and the counter never goes down, so a
 * number is never reused (not even after a customer invoice is deleted).
 *
 * InvoiceNumber is this sequence number written as plain decimal text: "1", "2", ….
 */
export async function nextInvoiceNumber(db: Database, manager: EntityManager, series: InvoiceSeries, businessId: number): Promise<string> {
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

/** One column of the record `id` points at, read inside the transaction (null when there is no id). */
export async function lookup(db: Database, manager: EntityManager, entity: AnyClass, id: unknown, column: string): Promise<unknown> {
  if (id === null || id === undefined) return null;
  const [row] = await db.query<{ v: unknown }>(`SELECT ${db.id(column)} AS v FROM ${db.tableOf(entity)} WHERE ${db.id('Id')} = ?`, [id], manager);
  return row?.v ?? null;
}

/** Whether a save points the field at another record than the stored one (always true on create). */
export function repointed(existing: WireRecord | null, values: Record<string, unknown>, field: string): boolean {
  return existing === null || (values[field] !== undefined && values[field] !== existing[field]);
}

/** An issued invoice keeps its business: its number belongs to that business's series. */
export function refuseBusinessChange(existing: WireRecord | null, values: Record<string, unknown>): void {
  if (existing && repointed(existing, values, 'BusinessId')) {
    throw RecordValidationException.field('BusinessId', `An issued invoice cannot move to another business (it belongs to Business ${existing.BusinessId}).`, values.BusinessId);
  }
}
