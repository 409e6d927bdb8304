import { defineRecord, type SqlContext } from '../../records/record-definition.js';
import { CoworkerInvoice } from '../coworker-invoices/coworker-invoice.entity.js';
import { CoworkerLedgerEntry } from './coworker-ledger-entry.entity.js';
import { CoworkerLedgerEntryDto, CoworkerLedgerEntryUpdateDto } from './dto/coworker-ledger-entry.dto.js';

/**
 * SQL: the customer's balance up to and including this entry, Σ Debit − Σ Credit of its entries in
 * (TransactionDate, Id) order (docs/api.md §10.1). Rounded to the columns' four places: SQLite adds
 * decimals as floating point, MySQL exactly.
 */
export const balanceSql = (q: SqlContext): string => {
  const e = (name: string) => `b.${q.id(name)}`;
  const r = (name: string) => `${q.alias}.${q.id(name)}`;
  return (
    `(SELECT ROUND(COALESCE(SUM(${e('Debit')} - ${e('Credit')}), 0), 4) FROM ${q.table(CoworkerLedgerEntry)} b ` +
    `WHERE ${e('CoworkerId')} = ${r('CoworkerId')} AND (${e('TransactionDate')} < ${r('TransactionDate')} ` +
    `OR (${e('TransactionDate')} = ${r('TransactionDate')} AND ${e('Id')} <= ${r('Id')})))`
  );
};

export const coworkerLedgerEntries = defineRecord({
  name: 'CoworkerLedgerEntry',
  path: 'billing/coworkerledgerentries',
  entity: CoworkerLedgerEntry,
  dto: CoworkerLedgerEntryDto,
  updateDto: CoworkerLedgerEntryUpdateDto,
  business: { column: 'BusinessId' },
  reads: {
    Balance: { kind: 'money', sql: balanceSql },
    CoworkerInvoiceNumber: { from: () => CoworkerInvoice, on: 'CoworkerInvoiceId', column: 'InvoiceNumber' },
  },
  toStringText: (e) =>
    `${e.TransactionDate?.toString().slice(0, 10)} ${e.Description ?? e.Code ?? ''} ${Number(e.Credit) > 0 ? `-${e.Credit}` : e.Debit}`
      .replace(/\s+/g, ' ')
      .trim(),
});
