import type { EntityManager } from 'typeorm';
import type { Database } from '../../common/database.js';
import type { Principal } from '../../common/principal.js';
import type { RecordService } from '../../common/record.service.js';
import type { ClaimContext, DueItem, DueLine, ReleaseContext } from './due-items.js';
import { roundToCents, toUnits } from './money.js';

/** A table of records billed whole, once: an `Invoiced` flag and the `CoworkerInvoiceId` they went on. */
export interface FlaggedTable {
  entity: abstract new () => unknown;
  /** The type's records, for the history of each change. */
  records: () => RecordService;
  /** Further columns the claim sets from its context (InvoicedOn, CreditAmount) and the release clears. */
  marks?: (claim: ClaimContext) => Record<string, unknown>;
  /** Those columns' values once released. */
  cleared?: Record<string, unknown>;
}

/**
 * Holds a flagged record's row while it is not billed: a write that changes nothing but waits for a
 * run's claim of it to commit, then sees it. False when it is billed (or gone).
 */
export async function holdUnbilled(db: Database, entity: abstract new () => unknown, id: number, manager: EntityManager): Promise<boolean> {
  const invoiced = db.id('Invoiced');
  const result = await db.run(`UPDATE ${db.tableOf(entity)} SET ${invoiced} = 0 WHERE ${db.id('Id')} = ? AND ${invoiced} = 0`, [id], manager);
  return result.affected === 1;
}

/**
 * The claim and the release of item sources whose records are billed whole (docs/billing.md "Item
 * sources": booking charges, time passes, charges): the claim marks the record `Invoiced` with its
 * invoice in ONE conditional UPDATE from the version read (true only when it changed the row); a deleted
 * invoice's records are marked not invoiced again, so the next run bills them. Each change goes in the
 * record's history, in the caller's transaction.
 */
export class FlagClaims {
  constructor(private readonly db: Database, private readonly table: FlaggedTable) {}

  /**
   * The due item of a record billed whole, read with the aliases `id`, `uniqueId`, `version`, `coworker` (its
   * customer), `amount` (the price of its line, before tax), `taxRate` and `currency`: one line of quantity 1
   * priced at `amount` (to the cent), claimed from the version read.
   */
  item(row: Readonly<Record<string, unknown>>, line: Pick<DueLine, 'source' | 'description' | 'periodFrom' | 'periodTo' | 'creditUse'>): DueItem {
    return {
      customerId: Number(row.coworker),
      lines: [{
        ...line, sourceUniqueId: String(row.uniqueId), quantity: 1, unitPrice: roundToCents(toUnits(row.amount)),
        taxRateId: row.taxRate === null ? null : Number(row.taxRate), currencyId: Number(row.currency),
      }],
      claim: (claim) => this.claim(claim, Number(row.id), Number(row.version)),
    };
  }

  /** Marks the record billed on the invoice, only while it is as read: whether it did. */
  async claim(context: ClaimContext, id: number, version: number): Promise<boolean> {
    const { manager, actor, invoice, businessId } = context;
    const before = await this.table.records().get(id, undefined, manager);
    const changed = await this.update(manager, actor, id, { Invoiced: 1, CoworkerInvoiceId: invoice.id, ...this.table.marks?.(context) }, `${this.q('Invoiced')} = 0 AND ${this.q('Version')} = ?`, [version]);
    if (changed) await this.table.records().recordChange(manager, actor, 'Update', id, before, undefined, undefined, businessId);
    return changed;
  }

  /** A deleted invoice's records are not invoiced any more: the next run bills them again. */
  async release({ invoiceId, manager, actor }: ReleaseContext): Promise<void> {
    const { db } = this;
    const billed = await db.query(`SELECT ${this.q('Id')} AS id FROM ${db.tableOf(this.table.entity)} WHERE ${this.q('CoworkerInvoiceId')} = ? AND ${this.q('Invoiced')} = 1 ORDER BY ${this.q('Id')}`, [invoiceId], manager);
    for (const { id } of billed) {
      const before = await this.table.records().get(Number(id), undefined, manager);
      await this.update(manager, actor, Number(id), { Invoiced: 0, CoworkerInvoiceId: null, ...this.table.cleared }, '1 = 1', []);
      await this.table.records().recordChange(manager, actor, 'Update', Number(id), before);
    }
  }

  private q(name: string): string {
    return this.db.id(name);
  }

  private async update(manager: EntityManager, actor: Principal | undefined, id: number, values: Record<string, unknown>, condition: string, parameters: unknown[]): Promise<boolean> {
    const { db } = this;
    const names = Object.keys(values);
    const result = await db.run(
      `UPDATE ${db.tableOf(this.table.entity)} SET ${names.map((name) => `${this.q(name)} = ?`).join(', ')}, ${this.q('Version')} = ${this.q('Version')} + 1, ${this.q('UpdatedOn')} = ?, ${this.q('UpdatedBy')} = ?, ${this.q('IsNew')} = 0 ` +
      `WHERE ${this.q('Id')} = ? AND ${condition}`,
      [...names.map((name) => values[name]), db.dateParam(new Date()), actor?.email ?? null, id, ...parameters],
      manager,
    );
    return result.affected === 1;
  }
}
