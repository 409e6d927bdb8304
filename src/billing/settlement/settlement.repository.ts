import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Database } from '../../common/database.js';
import { toWire } from '../../common/wire-values.js';
import { CoworkerInvoice } from '../coworker-invoices/coworker-invoice.entity.js';
import { CoworkerLedgerEntry } from '../coworker-ledger-entries/coworker-ledger-entry.entity.js';
import { units, type Units } from './money.js';

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

/**
 * The SQL of settlement (docs/settlement.md), inside the writing transaction. An invoice's settled
 * fields are derived from its entries and credit notes while its row is locked: MySQL's
 * `SELECT … FOR UPDATE` makes every writer of one invoice take turns on any instance; SQLite has one
 * writer at a time. Amounts are read as units (money.ts), never added in SQL.
 */
@Injectable()
export class SettlementRepository {
  constructor(private readonly db: Database) {}

  /** The invoice, its row locked until the transaction ends; null when there is none. */
  async lockInvoice(id: number, manager: EntityManager): Promise<LockedInvoice | null> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const columns = ['Id', 'UniqueId', 'BusinessId', 'CoworkerId', 'CurrencyId', 'InvoiceNumber', 'TotalAmount', 'TaxAmount', 'Void', 'CreditNote'].map(q).join(', ');
    const [row] = await db.query(`SELECT ${columns} FROM ${db.tableOf(CoworkerInvoice)} WHERE ${q('Id')} = ?${db.isMySql ? ' FOR UPDATE' : ''}`, [id], manager);
    if (!row) return null;
    return {
      Id: Number(row.Id),
      UniqueId: String(row.UniqueId),
      BusinessId: Number(row.BusinessId),
      CoworkerId: Number(row.CoworkerId),
      CurrencyId: Number(row.CurrencyId),
      InvoiceNumber: String(row.InvoiceNumber),
      TotalAmount: units(row.TotalAmount as number | string | null),
      TaxAmount: units(row.TaxAmount as number | string | null),
      Void: toWire('bool', row.Void) as boolean,
      CreditNote: toWire('bool', row.CreditNote) as boolean,
    };
  }

  /** The ledger entries against an invoice, but the one `except` (an entry being changed or deleted). */
  async entriesOf(invoiceId: number, manager: EntityManager, except?: number): Promise<InvoiceEntry[]> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const rows = await db.query(
      `SELECT ${q('Id')}, ${q('Debit')}, ${q('Credit')}, ${q('TransactionDate')} FROM ${db.tableOf(CoworkerLedgerEntry)} WHERE ${q('CoworkerInvoiceId')} = ?`,
      [invoiceId], manager,
    );
    return rows.filter((row) => Number(row.Id) !== except).map((row) => ({
      Id: Number(row.Id),
      Debit: units(row.Debit as number | string),
      Credit: units(row.Credit as number | string),
      TransactionDate: Date.parse(toWire('datetime', row.TransactionDate) as string),
    }));
  }

  /** The totals (negative) of the credit notes of the invoice whose UniqueId is `uniqueId`. */
  async creditNoteTotals(uniqueId: string, manager: EntityManager): Promise<Units[]> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const rows = await db.query(
      `SELECT ${q('TotalAmount')} AS t FROM ${db.tableOf(CoworkerInvoice)} WHERE ${q('OriginalInvoiceGuid')} = ? AND ${q('CreditNote')} = ?`,
      [uniqueId, 1], manager,
    );
    return rows.map((row) => units(row.t as number | string | null));
  }
}
