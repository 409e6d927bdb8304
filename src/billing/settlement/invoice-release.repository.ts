import { Database } from '../../persistence/database.js';
import type { Principal } from '../../platform/principal.js';
import { CoworkerInvoiceLine } from '../coworker-invoice-lines/coworker-invoice-line.entity.js';
import { CoworkerInvoice } from '../coworker-invoices/coworker-invoice.entity.js';
import { CoworkerProduct } from '../coworker-products/coworker-product.entity.js';
import { updateStampParameters, updateStampSql } from '../../records/audit-stamp.js';
import type { Tx } from '../../persistence/tx.js';

/** The line field naming a source an invoice delete gives back. */
export type ReleasedField = 'CoworkerContractUniqueId' | 'ContractProductUniqueId' | 'CoworkerProductUniqueId';

/** A line of the same source on another invoice. */
export interface OtherBilling {
  /** PeriodFrom, as stored. */
  periodFrom: unknown;
  invoiceId: number;
  invoiceNumber: string;
  /** The invoice's CreatedOn, as stored. */
  invoiceCreatedOn: unknown;
}

/** The SQL of an invoice delete's release of what it billed (invoice-release.ts, docs/api.md §10.2). */
export class InvoiceReleaseRepository {
  constructor(private readonly db: Database) {}

  /** The sources the invoice's lines bill through `field`, each with the first period it billed (as stored). */
  async billedBy(invoiceId: number, field: ReleasedField, tx: Tx): Promise<Array<{ uniqueId: string; firstFrom: unknown }>> {
    const q = (name: string) => this.db.id(name);
    const rows = await this.db.query(
      `SELECT ${q(field)} AS u, MIN(${q('PeriodFrom')}) AS f FROM ${this.db.tableOf(CoworkerInvoiceLine)} ` +
        `WHERE ${q('CoworkerInvoiceId')} = ? AND ${q(field)} IS NOT NULL GROUP BY ${q(field)} ORDER BY ${q(field)}`,
      [invoiceId],
      tx,
    );
    return rows.map((row) => ({ uniqueId: String(row.u), firstFrom: row.f }));
  }

  /** The source record with this UniqueId (a sale with its RegularCharge as stored); null when it is gone. */
  async sourceRecord(entity: abstract new () => unknown, uniqueId: string, tx: Tx): Promise<{ id: number; regularCharge: unknown } | null> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const [record] = await db.query(
      `SELECT ${q('Id')} AS id${entity === CoworkerProduct ? `, ${q('RegularCharge')} AS r` : ''} FROM ${db.tableOf(entity)} WHERE ${q('UniqueId')} = ?`,
      [uniqueId],
      tx,
    );
    return record ? { id: Number(record.id), regularCharge: record.r } : null;
  }

  /** The lines of the source billed on invoices other than `invoiceId`, latest period first. */
  async otherBillings(field: ReleasedField, uniqueId: string, invoiceId: number, tx: Tx): Promise<OtherBilling[]> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const rows = await db.query(
      `SELECT l.${q('PeriodFrom')} AS f, l.${q('CoworkerInvoiceId')} AS i, v.${q('InvoiceNumber')} AS n, v.${q('CreatedOn')} AS c FROM ${db.tableOf(CoworkerInvoiceLine)} l ` +
        `JOIN ${db.tableOf(CoworkerInvoice)} v ON v.${q('Id')} = l.${q('CoworkerInvoiceId')} WHERE l.${q(field)} = ? AND l.${q('CoworkerInvoiceId')} <> ? ORDER BY l.${q('PeriodFrom')} DESC`,
      [uniqueId, invoiceId],
      tx,
    );
    return rows.map((row) => ({ periodFrom: row.f, invoiceId: Number(row.i), invoiceNumber: String(row.n), invoiceCreatedOn: row.c }));
  }

  /** Writes the released source's `values`, raises its version and stamps it. */
  async markReleased(
    entity: abstract new () => unknown,
    id: number,
    values: Record<string, unknown>,
    actor: Principal | undefined,
    tx: Tx,
  ): Promise<void> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const names = Object.keys(values);
    await db.query(
      `UPDATE ${db.tableOf(entity)} SET ${names.map((name) => `${q(name)} = ?`).join(', ')}, ${updateStampSql(q)} WHERE ${q('Id')} = ?`,
      [...names.map((name) => values[name]), ...updateStampParameters((date) => db.dateParam(date), actor), id],
      tx,
    );
  }
}
