import { Injectable } from '@nestjs/common';
import { Database } from '../../persistence/database.js';
import { toWire } from '../../records/wire-values.js';
import { Business } from '../../kernel/businesses/business.entity.js';
import { Country } from '../../kernel/countries/country.entity.js';
import { CoworkerInvoiceLine } from '../coworker-invoice-lines/coworker-invoice-line.entity.js';
import { CoworkerInvoice } from '../coworker-invoices/coworker-invoice.entity.js';
import { CoworkerLedgerEntry } from '../coworker-ledger-entries/coworker-ledger-entry.entity.js';
import { SERVICE_CODES } from '../coworker-ledger-entries/service-entries.js';
import { toUnits, type Units } from '../../kernel/money.js';
import { createStamp } from '../../records/audit-stamp.js';
import type { Tx } from '../../persistence/tx.js';

/** An invoice as settlement reads it, under its row lock. */
export interface LockedInvoice {
  Id: number;
  UniqueId: string;
  BusinessId: number;
  CoworkerId: number;
  CurrencyId: number;
  InvoiceNumber: string;
  TotalAmount: Units;
  TaxAmount: Units;
  Void: boolean;
  CreditNote: boolean;
}

/** A ledger entry against an invoice, as its sums need it. */
export interface InvoiceEntry {
  Id: number;
  Debit: Units;
  Credit: Units;
  /** Milliseconds since the epoch. */
  TransactionDate: number;
}

/** One of the service's own ledger entries of an invoice (INV, CRN, VOID). */
export interface OwnEntry {
  Id: number;
  Code: string;
  CoworkerId: number;
  Description: string | null;
  Debit: Units;
  Credit: Units;
  /** As the wire writes it. */
  TransactionDate: string;
}

/** An invoice as its own ledger entry follows it. */
export interface LedgerInvoice {
  Id: number;
  BusinessId: number;
  CoworkerId: number;
  InvoiceNumber: string;
  TotalAmount: Units;
  /** As the wire writes it. */
  CreatedOn: string;
  CreditNote: boolean;
}

/**
 * The SQL of settlement (docs/settlement.md), inside the writing transaction. An invoice's settled
 * fields are derived from its entries and credit notes while its row is locked: MySQL's
 * `SELECT … FOR UPDATE` makes every writer of one invoice take turns on any instance; SQLite has one
 * writer at a time. Amounts are read as units (kernel/money.ts), never added in SQL.
 */
@Injectable()
export class SettlementRepository {
  constructor(private readonly db: Database) {}

  /**
   * The invoice, its row locked until the transaction ends; null when there is none. On a Galera cluster a
   * `SELECT … FOR UPDATE` holds the row on its own node only, so there the writer first bumps the invoice's
   * SettlementSequence and takes that turn (Database.takeTurn): two nodes' writers of one invoice then
   * conflict, and the second runs again after the first (docs/settlement.md).
   */
  async lockInvoice(id: number, tx: Tx): Promise<LockedInvoice | null> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    if (await db.replicated()) {
      const sequence = q('SettlementSequence');
      const bumped = await db.runGuarded(
        `UPDATE ${db.tableOf(CoworkerInvoice)} SET ${sequence} = ${sequence} + 1 WHERE ${q('Id')} = ?`,
        [id],
        tx,
        { entity: CoworkerInvoice, id, turn: 'SettlementSequence' },
      );
      if (!bumped) return null;
    }
    const columns = [
      'Id',
      'UniqueId',
      'BusinessId',
      'CoworkerId',
      'CurrencyId',
      'InvoiceNumber',
      'TotalAmount',
      'TaxAmount',
      'Void',
      'CreditNote',
    ]
      .map(q)
      .join(', ');
    const [row] = await db.query(
      `SELECT ${columns} FROM ${db.tableOf(CoworkerInvoice)} WHERE ${q('Id')} = ?${db.isMySql ? ' FOR UPDATE' : ''}`,
      [id],
      tx,
    );
    if (!row) return null;
    return {
      Id: Number(row.Id),
      UniqueId: String(row.UniqueId),
      BusinessId: Number(row.BusinessId),
      CoworkerId: Number(row.CoworkerId),
      CurrencyId: Number(row.CurrencyId),
      InvoiceNumber: String(row.InvoiceNumber),
      TotalAmount: toUnits(row.TotalAmount),
      TaxAmount: toUnits(row.TaxAmount),
      Void: toWire('bool', row.Void) as boolean,
      CreditNote: toWire('bool', row.CreditNote) as boolean,
    };
  }

  /**
   * The payments and refunds of an invoice: its ledger entries but the service's own (INV, CRN, VOID:
   * service-entries.ts) and the one `except` (an entry being changed or deleted).
   */
  async entriesOf(invoiceId: number, tx: Tx, except?: number): Promise<InvoiceEntry[]> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const rows = await db.query(
      `SELECT ${q('Id')}, ${q('Debit')}, ${q('Credit')}, ${q('TransactionDate')} FROM ${db.tableOf(CoworkerLedgerEntry)} ` +
        `WHERE ${q('CoworkerInvoiceId')} = ? AND (${q('Code')} IS NULL OR ${q('Code')} NOT IN (${SERVICE_CODES.map(() => '?').join(', ')}))`,
      [invoiceId, ...SERVICE_CODES],
      tx,
    );
    return rows
      .filter((row) => Number(row.Id) !== except)
      .map((row) => ({
        Id: Number(row.Id),
        Debit: toUnits(row.Debit as number | string),
        Credit: toUnits(row.Credit as number | string),
        TransactionDate: Date.parse(toWire('datetime', row.TransactionDate) as string),
      }));
  }

  /** The service's own ledger entries of an invoice (INV, CRN, VOID), in Id order. */
  async ownEntriesOf(invoiceId: number, tx: Tx): Promise<OwnEntry[]> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const rows = await db.query(
      `SELECT ${['Id', 'Code', 'CoworkerId', 'Description', 'Debit', 'Credit', 'TransactionDate'].map(q).join(', ')} FROM ${db.tableOf(CoworkerLedgerEntry)} ` +
        `WHERE ${q('CoworkerInvoiceId')} = ? AND ${q('Code')} IN (${SERVICE_CODES.map(() => '?').join(', ')}) ORDER BY ${q('Id')}`,
      [invoiceId, ...SERVICE_CODES],
      tx,
    );
    return rows.map((row) => ({
      Id: Number(row.Id),
      Code: String(row.Code),
      CoworkerId: Number(row.CoworkerId),
      Description: row.Description === null ? null : String(row.Description),
      Debit: toUnits(row.Debit as number | string),
      Credit: toUnits(row.Credit as number | string),
      TransactionDate: toWire('datetime', row.TransactionDate) as string,
    }));
  }

  /** What an invoice's own ledger entry is made of (InvoiceLedger); null when there is no such invoice. */
  async invoiceForLedger(id: number, tx: Tx): Promise<LedgerInvoice | null> {
    return (await this.invoicesForLedger([id], tx))[0] ?? null;
  }

  /** What the ledger entries of several invoices follow (a billing run's batch), by one read, in Id order; the gone ones absent. */
  async invoicesForLedger(ids: readonly number[], tx: Tx): Promise<LedgerInvoice[]> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const columns = ['Id', 'BusinessId', 'CoworkerId', 'InvoiceNumber', 'TotalAmount', 'CreatedOn', 'CreditNote'].map(q).join(', ');
    const rows = await db.query(
      ids.length === 1
        ? `SELECT ${columns} FROM ${db.tableOf(CoworkerInvoice)} WHERE ${q('Id')} = ?`
        : `SELECT ${columns} FROM ${db.tableOf(CoworkerInvoice)} WHERE ${q('Id')} IN (${ids.map(() => '?').join(', ')}) ORDER BY ${q('Id')}`,
      [...ids],
      tx,
    );
    return rows.map((row) => ({
      Id: Number(row.Id),
      BusinessId: Number(row.BusinessId),
      CoworkerId: Number(row.CoworkerId),
      InvoiceNumber: String(row.InvoiceNumber),
      TotalAmount: toUnits(row.TotalAmount),
      CreatedOn: toWire('datetime', row.CreatedOn) as string,
      CreditNote: toWire('bool', row.CreditNote) as boolean,
    }));
  }

  /** Removes one ledger entry (the service's own, going with its invoice). */
  async deleteEntry(id: number, tx: Tx): Promise<void> {
    const { db } = this;
    await db.query(`DELETE FROM ${db.tableOf(CoworkerLedgerEntry)} WHERE ${db.id('Id')} = ?`, [id], tx);
  }

  /** The totals (negative) of the credit notes of the invoice whose UniqueId is `uniqueId`. */
  async creditNoteTotals(uniqueId: string, tx: Tx): Promise<Units[]> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const rows = await db.query(
      `SELECT ${q('TotalAmount')} AS t FROM ${db.tableOf(CoworkerInvoice)} WHERE ${q('OriginalInvoiceGuid')} = ? AND ${q('CreditNote')} = ?`,
      [uniqueId, 1],
      tx,
    );
    return rows.map((row) => toUnits(row.t as number | string | null));
  }

  /** Writes columns of an invoice just issued in this transaction (no version raise: its Create entry follows). */
  async overwriteInvoice(id: number, values: Readonly<Record<string, unknown>>, tx: Tx): Promise<void> {
    const { db } = this;
    const names = Object.keys(values);
    const parameters = names.map((name) => {
      const value = values[name];
      if (value instanceof Date) return db.dateParam(value);
      if (typeof value === 'boolean') return value ? 1 : 0;
      return value ?? null;
    });
    await db.query(
      `UPDATE ${db.tableOf(CoworkerInvoice)} SET ${names.map((name) => `${db.id(name)} = ?`).join(', ')} WHERE ${db.id('Id')} = ?`,
      [...parameters, id],
      tx,
    );
  }

  /** The tax rate (percent, as stored) and its id when every line of the invoice has the same one; else null. */
  async singleTaxRate(invoiceId: number, tx: Tx): Promise<{ id: number | null; rate: string } | null> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const rows = await db.query(
      `SELECT DISTINCT ${q('TaxRateId')} AS id, ${q('TaxRate')} AS rate FROM ${db.tableOf(CoworkerInvoiceLine)} WHERE ${q('CoworkerInvoiceId')} = ?`,
      [invoiceId],
      tx,
    );
    if (rows.length !== 1) return null;
    return { id: rows[0].id === null ? null : Number(rows[0].id), rate: String(rows[0].rate) };
  }

  /** Inserts an invoice line (a credit note's) with its common fields; answers its Id. */
  async insertLine(values: Readonly<Record<string, unknown>>, tx: Tx, by: string | null): Promise<number> {
    const { db } = this;
    const now = new Date();
    const row: Record<string, unknown> = { ...createStamp(by, now), ...values };
    const names = Object.keys(row);
    const parameters = names.map((name) => {
      const value = row[name];
      if (value instanceof Date) return db.dateParam(value);
      if (typeof value === 'boolean') return value ? 1 : 0;
      return value ?? null;
    });
    await db.query(
      `INSERT INTO ${db.tableOf(CoworkerInvoiceLine)} (${names.map((name) => db.id(name)).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
      parameters,
      tx,
    );
    const [created] = await db.query(
      `SELECT ${db.id('Id')} AS id FROM ${db.tableOf(CoworkerInvoiceLine)} WHERE ${db.id('UniqueId')} = ?`,
      [row.UniqueId],
      tx,
    );
    return Number(created.id);
  }

  /** Deletes an invoice's lines (before the invoice goes: COWORKER_INVOICE_DELETE, a record DELETE). */
  async deleteLines(id: number, tx: Tx): Promise<void> {
    const { db } = this;
    await db.query(`DELETE FROM ${db.tableOf(CoworkerInvoiceLine)} WHERE ${db.id('CoworkerInvoiceId')} = ?`, [id], tx);
  }

  /** How many lines each of the invoices has (an invoice without lines is absent). */
  async lineCounts(invoiceIds: readonly number[]): Promise<Map<number, number>> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    if (!invoiceIds.length) return new Map();
    const rows = await db.query(
      `SELECT ${q('CoworkerInvoiceId')} AS invoice, COUNT(*) AS n FROM ${db.tableOf(CoworkerInvoiceLine)} WHERE ${q('CoworkerInvoiceId')} IN (${invoiceIds.map(() => '?').join(', ')}) GROUP BY ${q('CoworkerInvoiceId')}`,
      [...invoiceIds],
    );
    return new Map(rows.map((row) => [Number(row.invoice), Number(row.n)]));
  }

  /** The first `limit` lines of an invoice in their order, as the PDF shows them. */
  async linesOf(invoiceId: number, limit: number): Promise<Array<Record<string, unknown>>> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const fields = ['Description', 'PeriodFrom', 'PeriodTo', 'Quantity', 'UnitPrice', 'TaxRate', 'SubTotal', 'TaxAmount', 'TotalAmount'];
    const rows = await db.query(
      `SELECT ${fields.map(q).join(', ')} FROM ${db.tableOf(CoworkerInvoiceLine)} WHERE ${q('CoworkerInvoiceId')} = ? ORDER BY ${q('Position')}, ${q('Id')} LIMIT ${Math.max(0, Math.floor(limit))}`,
      [invoiceId],
    );
    return rows.map((row) => ({
      Description: row.Description ?? null,
      PeriodFrom: toWire('datetime', row.PeriodFrom),
      PeriodTo: toWire('datetime', row.PeriodTo),
      Quantity: toWire('int', row.Quantity),
      UnitPrice: toWire('money', row.UnitPrice),
      TaxRate: toWire('money', row.TaxRate),
      SubTotal: toWire('money', row.SubTotal),
      TaxAmount: toWire('money', row.TaxAmount),
      TotalAmount: toWire('money', row.TotalAmount),
    }));
  }

  /** The credit notes of the invoice whose UniqueId is `uniqueId`, in the order they were issued, as its PDF names them. */
  async creditNotesOf(uniqueId: string): Promise<Array<{ InvoiceNumber: string; TotalAmount: number }>> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const rows = await db.query(
      `SELECT ${q('InvoiceNumber')} AS n, ${q('TotalAmount')} AS t FROM ${db.tableOf(CoworkerInvoice)} WHERE ${q('OriginalInvoiceGuid')} = ? AND ${q('CreditNote')} = ? ORDER BY ${q('Id')}`,
      [uniqueId, 1],
    );
    return rows.map((row) => ({ InvoiceNumber: String(row.n), TotalAmount: toWire('money', row.t) as number }));
  }

  /** A business as its invoices' heading shows it. */
  async businessForPdf(businessId: number): Promise<Record<string, unknown> | null> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const [row] = await db.query(
      `SELECT b.${q('Name')} AS Name, b.${q('Address')} AS Address, b.${q('City')} AS City, b.${q('PostCode')} AS PostCode, b.${q('Email')} AS Email, ` +
        `b.${q('WebAddress')} AS WebAddress, c.${q('Name')} AS CountryName FROM ${db.tableOf(Business)} b LEFT JOIN ${db.tableOf(Country)} c ON c.${q('Id')} = b.${q('CountryId')} ` +
        `WHERE b.${q('Id')} = ?`,
      [businessId],
    );
    return row ?? null;
  }

  /** The number of the invoice whose UniqueId is `uniqueId` (a credit note's original). */
  async invoiceNumberOf(uniqueId: string): Promise<string | null> {
    const { db } = this;
    const [row] = await db.query(
      `SELECT ${db.id('InvoiceNumber')} AS n FROM ${db.tableOf(CoworkerInvoice)} WHERE ${db.id('UniqueId')} = ?`,
      [uniqueId],
    );
    return row ? String(row.n) : null;
  }

  /** Whether the invoice has lines (then its totals are theirs). */
  async hasLines(invoiceId: number, tx: Tx): Promise<boolean> {
    const { db } = this;
    const rows = await db.query(
      `SELECT 1 AS x FROM ${db.tableOf(CoworkerInvoiceLine)} WHERE ${db.id('CoworkerInvoiceId')} = ? LIMIT 1`,
      [invoiceId],
      tx,
    );
    return rows.length > 0;
  }
}
