import type { Database } from '../../persistence/database.js';
import type { Principal } from '../../platform/principal.js';
import type { RecordService } from '../../records/record.service.js';
import type { ClaimContext, ClaimRow, DueItem, DueLine, ReleaseContext } from './due-items.js';
import { DueItemsRepository } from './due-items.repository.js';
import { roundToCents, toUnits } from '../../kernel/money.js';
import type { Tx } from '../../persistence/tx.js';

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
export function holdUnbilled(db: Database, entity: abstract new () => unknown, id: number, tx: Tx): Promise<boolean> {
  return new DueItemsRepository(db).holdUnbilled(entity, id, tx);
}

/**
 * The claim and the release of item sources whose records are billed whole (docs/billing.md "Item
 * sources": booking charges, time passes, charges): the claim marks the record `Invoiced` with its
 * invoice in ONE conditional UPDATE from the version read (true only when it changed the row); a deleted
 * invoice's records are marked not invoiced again, so the next run bills them. Each change goes in the
 * record's history, in the caller's transaction.
 */
export class FlagClaims {
  private readonly rows: DueItemsRepository;

  constructor(
    db: Database,
    private readonly table: FlaggedTable,
  ) {
    this.rows = new DueItemsRepository(db);
  }

  /**
   * The due item of a record billed whole, read with the aliases `id`, `uniqueId`, `version`, `coworker` (its
   * customer), `amount` (the price of its line, before tax), `taxRate` and `currency`: one line of quantity 1
   * priced at `amount` (to the cent), claimed from the version read.
   */
  item(
    row: Readonly<Record<string, unknown>>,
    line: Pick<DueLine, 'source' | 'description' | 'periodFrom' | 'periodTo' | 'creditUse'>,
  ): DueItem {
    return {
      customerId: Number(row.coworker),
      lines: [
        {
          ...line,
          sourceUniqueId: String(row.uniqueId),
          quantity: 1,
          unitPrice: roundToCents(toUnits(row.amount)),
          taxRateId: row.taxRate === null ? null : Number(row.taxRate),
          currencyId: Number(row.currency),
        },
      ],
      claim: (claim) => this.claim(claim, Number(row.id), Number(row.version)),
      claimRow: (claim) => this.claimRow(claim, Number(row.id), Number(row.version)),
    };
  }

  /** The claim as data, for a batch's claims by set (set-claims.ts): the same marks, from the same state. */
  claimRow(context: ClaimContext, id: number, version: number): ClaimRow {
    const { entity, records } = this.table;
    const marks = { Invoiced: 1, CoworkerInvoiceId: context.invoice.id, ...this.table.marks?.(context) };
    return { entity, records: records(), id, marks, unclaimed: { Invoiced: 0, Version: version } };
  }

  /** Marks the record billed on the invoice, only while it is as read: whether it did. */
  async claim(context: ClaimContext, id: number, version: number): Promise<boolean> {
    const { tx, actor, invoice, businessId } = context;
    const mark = () => this.update(tx, actor, id, { Invoiced: 1, CoworkerInvoiceId: invoice.id, ...this.table.marks?.(context) }, version);
    return this.table.records().changeRecorded(tx, actor, id, mark, undefined, businessId);
  }

  /** A deleted invoice's records are not invoiced any more: the next run bills them again. */
  async release({ invoiceId, tx, actor }: ReleaseContext): Promise<void> {
    for (const id of await this.rows.flaggedOn(this.table.entity, invoiceId, tx)) {
      await this.table.records().changeRecorded(tx, actor, id, async () => {
        await this.update(tx, actor, id, { Invoiced: 0, CoworkerInvoiceId: null, ...this.table.cleared }, null);
      });
    }
  }

  /** With `unbilledAt`, only while the record is not billed and of that version. */
  private update(
    tx: Tx,
    actor: Principal | undefined,
    id: number,
    values: Record<string, unknown>,
    unbilledAt: number | null,
  ): Promise<boolean> {
    return this.rows.updateFlagged(this.table.entity, id, values, unbilledAt, actor, tx);
  }
}
