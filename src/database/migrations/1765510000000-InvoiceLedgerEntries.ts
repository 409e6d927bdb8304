import { randomUUID } from 'node:crypto';
import type { MigrationInterface, QueryRunner } from 'typeorm';

const PAGE = 500;

/**
 * Invoices are ledger entries too (docs/settlement.md, docs/api.md §10.1): the entries the service now
 * writes when it issues, credits or voids an invoice, back-filled for the invoices issued before. Each
 * invoice gets its INV entry (Debit = its TotalAmount, dated at its CreatedOn), each credit note its CRN
 * (Credit = −its TotalAmount), each void invoice its VOID (Credit = its TotalAmount, dated when it was last
 * updated, its void), so every customer's Balance is what it owes. An entry already there is not written
 * twice. Amounts and dates are copied by the database itself (INSERT … SELECT): exact on both.
 */
export class InvoiceLedgerEntries1765510000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    const q = (name: string) => runner.connection.driver.escape(name);
    const now = new Date().toISOString().replace('T', ' ').replace('Z', '');
    const names = [
      'UniqueId',
      'CreatedOn',
      'UpdatedOn',
      'IsNew',
      'BusinessId',
      'CoworkerId',
      'CoworkerInvoiceId',
      'Code',
      'Description',
      'Debit',
      'Credit',
      'PaymentGatewayName',
      'TransactionDate',
    ];
    const total = `i.${q('TotalAmount')}`;
    // The entry's amounts from the invoice's signed total: positive debits, negative credits.
    const debitOf = (sign: '' | '-') => `CASE WHEN ${sign}COALESCE(${total}, 0) > 0 THEN ${sign}COALESCE(${total}, 0) ELSE 0 END`;
    const creditOf = (sign: '' | '-') => `CASE WHEN ${sign}COALESCE(${total}, 0) < 0 THEN -(${sign}COALESCE(${total}, 0)) ELSE 0 END`;
    const insert = (sign: '' | '-', dated: string) =>
      `INSERT INTO ${q('coworkerledgerentry')} (${names.map(q).join(', ')}) SELECT ?, ?, ?, 1, i.${q('BusinessId')}, i.${q('CoworkerId')}, i.${q('Id')}, ?, ?, ` +
      `${debitOf(sign)}, ${creditOf(sign)}, 0, i.${q(dated)} FROM ${q('coworkerinvoice')} i WHERE i.${q('Id')} = ?`;
    let after = 0;
    for (;;) {
      const invoices = (await runner.query(
        `SELECT i.${q('Id')} AS id, i.${q('InvoiceNumber')} AS n, i.${q('CreditNote')} AS note, i.${q('Void')} AS void, ` +
          `(SELECT COUNT(*) FROM ${q('coworkerledgerentry')} e WHERE e.${q('CoworkerInvoiceId')} = i.${q('Id')} AND e.${q('Code')} IN ('INV', 'CRN')) AS issued, ` +
          `(SELECT COUNT(*) FROM ${q('coworkerledgerentry')} e WHERE e.${q('CoworkerInvoiceId')} = i.${q('Id')} AND e.${q('Code')} = 'VOID') AS voided ` +
          `FROM ${q('coworkerinvoice')} i WHERE i.${q('Id')} > ? ORDER BY i.${q('Id')} LIMIT ${PAGE}`,
        [after],
      )) as Array<{ id: number | string; n: string; note: unknown; void: unknown; issued: number | string; voided: number | string }>;
      if (!invoices.length) break;
      for (const invoice of invoices) {
        const id = Number(invoice.id);
        const creditNote = Number(invoice.note) === 1;
        if (Number(invoice.issued) === 0) {
          await runner.query(insert('', 'CreatedOn'), [
            randomUUID(),
            now,
            now,
            creditNote ? 'CRN' : 'INV',
            `${creditNote ? 'Credit note' : 'Invoice'} ${invoice.n}`,
            id,
          ]);
        }
        if (!creditNote && Number(invoice.void) === 1 && Number(invoice.voided) === 0) {
          await runner.query(insert('-', 'UpdatedOn'), [randomUUID(), now, now, 'VOID', `Void of invoice ${invoice.n}`, id]);
        }
      }
      after = Number(invoices[invoices.length - 1].id);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    const q = (name: string) => runner.connection.driver.escape(name);
    await runner.query(`DELETE FROM ${q('coworkerledgerentry')} WHERE ${q('Code')} IN ('INV', 'CRN', 'VOID')`);
  }
}
