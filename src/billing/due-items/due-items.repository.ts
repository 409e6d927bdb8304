import type { Database } from '../../persistence/database.js';
import type { Principal } from '../../platform/principal.js';
import { CoworkerInvoiceLine } from '../coworker-invoice-lines/coworker-invoice-line.entity.js';
import { updateStampParameters, updateStampSql } from '../../records/audit-stamp.js';
import type { ClaimRow } from './due-items.js';
import type { Tx } from '../../persistence/tx.js';

/** The line column naming each kind of source. */
export type SourceColumn =
  | 'CoworkerContractUniqueId'
  | 'ContractProductUniqueId'
  | 'CoworkerProductUniqueId'
  | 'BookingUniqueId'
  | 'CoworkerTimePassUniqueId'
  | 'CoworkerChargeUniqueId';

/**
 * The SQL billing's item sources share (docs/billing.md "Item sources"): whether a source was billed,
 * and the reads and conditional UPDATEs of records billed whole, flagged `Invoiced` with the invoice
 * they went on (flag-claims.ts).
 */
export class DueItemsRepository {
  constructor(private readonly db: Database) {}

  /** Whether any invoice line was billed from the source with this UniqueId. */
  async hasBilledLines(column: SourceColumn, uniqueId: string, tx?: Tx): Promise<boolean> {
    const { db } = this;
    const [found] = await db.query(
      `SELECT 1 AS x FROM ${db.tableOf(CoworkerInvoiceLine)} WHERE ${db.id(column)} = ? LIMIT 1`,
      [uniqueId],
      tx,
    );
    return Boolean(found);
  }

  /** Writes a flagged record's row only while it is not billed (changing nothing): whether it did. */
  async holdUnbilled(entity: abstract new () => unknown, id: number, tx: Tx): Promise<boolean> {
    const { db } = this;
    const invoiced = db.id('Invoiced');
    const result = await db.run(`UPDATE ${db.tableOf(entity)} SET ${invoiced} = 0 WHERE ${db.id('Id')} = ? AND ${invoiced} = 0`, [id], tx);
    return result.affected === 1;
  }

  /** The ids of the flagged records billed on the invoice, in Id order. */
  async flaggedOn(entity: abstract new () => unknown, invoiceId: number, tx: Tx): Promise<number[]> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const billed = await db.query(
      `SELECT ${q('Id')} AS id FROM ${db.tableOf(entity)} WHERE ${q('CoworkerInvoiceId')} = ? AND ${q('Invoiced')} = 1 ORDER BY ${q('Id')}`,
      [invoiceId],
      tx,
    );
    return billed.map((row) => Number(row.id));
  }

  /**
   * Sets a flagged record's `values`, raises its version and stamps it: with `unbilledAt`, only while it
   * is not billed and still of that version (a claim). Whether it changed the row.
   */
  async updateFlagged(
    entity: abstract new () => unknown,
    id: number,
    values: Record<string, unknown>,
    unbilledAt: number | null,
    actor: Principal | undefined,
    tx: Tx,
  ): Promise<boolean> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const names = Object.keys(values);
    const [condition, parameters] = unbilledAt === null ? ['1 = 1', []] : [`${q('Invoiced')} = 0 AND ${q('Version')} = ?`, [unbilledAt]];
    const result = await db.run(
      `UPDATE ${db.tableOf(entity)} SET ${names.map((name) => `${q(name)} = ?`).join(', ')}, ${updateStampSql(q)} ` +
        `WHERE ${q('Id')} = ? AND ${condition}`,
      [...names.map((name) => values[name]), ...updateStampParameters((date) => db.dateParam(date), actor), id, ...parameters],
      tx,
    );
    return result.affected === 1;
  }

  /**
   * Claims of one kind by ONE statement (docs/billing.md "Exactly once"): each row's `marks` set, its version
   * raised and stamped, only while its `unclaimed` columns hold what was read; a mark of the same value
   * for every row is one assignment, others a `CASE Id`. The rows changed: fewer than given means a claim
   * was lost. Every row names the same marks and unclaimed columns.
   */
  async claimMany(
    entity: abstract new () => unknown,
    rows: readonly Pick<ClaimRow, 'id' | 'marks' | 'unclaimed'>[],
    actor: Principal | undefined,
    tx: Tx,
  ): Promise<number> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const setParameters: unknown[] = [];
    const assignments = Object.keys(rows[0].marks).map((name) => {
      const values = rows.map((row) => row.marks[name]);
      if (values.every((value) => value === values[0])) {
        setParameters.push(values[0]);
        return `${q(name)} = ?`;
      }
      for (const row of rows) setParameters.push(row.id, row.marks[name]);
      return `${q(name)} = CASE ${q('Id')} ${rows.map(() => 'WHEN ? THEN ?').join(' ')} ELSE ${q(name)} END`;
    });
    const asRead = rows.map(({ unclaimed }) =>
      [
        `${q('Id')} = ?`,
        ...Object.entries(unclaimed).map(([name, read]) => (read === null ? `${q(name)} IS NULL` : `${q(name)} = ?`)),
      ].join(' AND '),
    );
    const readParameters = rows.flatMap(({ id, unclaimed }) => [id, ...Object.values(unclaimed).filter((read) => read !== null)]);
    const result = await db.run(
      `UPDATE ${db.tableOf(entity)} SET ${assignments.join(', ')}, ${updateStampSql(q)} ` +
        `WHERE ${q('Id')} IN (${rows.map(() => '?').join(', ')}) AND ((${asRead.join(') OR (')}))`,
      [...setParameters, ...updateStampParameters((date) => db.dateParam(date), actor), ...rows.map((row) => row.id), ...readParameters],
      tx,
    );
    return result.affected;
  }
}
