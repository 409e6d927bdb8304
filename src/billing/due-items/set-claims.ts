import type { Database } from '../../persistence/database.js';
import type { Principal } from '../../platform/principal.js';
import type { RecordChangeEntry } from '../../records/change-log/change-log.service.js';
import type { ClaimContext, ClaimRow, DueItem, DueLine } from './due-items.js';
import { DueItemsRepository } from './due-items.repository.js';
import type { Tx } from '../../persistence/tx.js';

/** Rows one claim statement takes: a few thousand bound parameters at most, within both databases' limits. */
const CLAIM_CHUNK = 200;

/**
 * A due item's claim made from its claim as data (`claimRow`), and the data itself: one source of both, the
 * single claim a customer's own transaction makes and the row its batch claims by set (claimRows).
 */
export function claimedBy(
  rowOf: (context: ClaimContext, billed: readonly DueLine[]) => ClaimRow,
  claimOne: (context: ClaimContext, row: ClaimRow) => Promise<boolean>,
): Pick<DueItem, 'claim' | 'claimRow'> {
  return { claim: (context, billed) => claimOne(context, rowOf(context, billed)), claimRow: rowOf };
}

/**
 * Makes the claims of a batch of customers of `businessId` (docs/billing.md "Exactly once"): the claims of
 * one kind (table, marks and columns read) by one conditional UPDATE per chunk, the records read before
 * and after by one read each and their history by one INSERT (RecordService.changesRecorded), or added to
 * `pending` for the caller to record with the batch's other history. False when a claim was lost (fewer
 * rows changed than claimed, or one record claimed twice): the caller rolls back.
 */
export async function claimRows(
  db: Database,
  tx: Tx,
  actor: Principal | undefined,
  businessId: number,
  rows: readonly ClaimRow[],
  pending?: RecordChangeEntry[],
): Promise<boolean> {
  const repository = new DueItemsRepository(db);
  const kinds = new Map<string, ClaimRow[]>();
  for (const row of rows) {
    const kind = `${db.tableOf(row.entity)} ${Object.keys(row.marks).join(',')} ${Object.keys(row.unclaimed).join(',')}`;
    const same = kinds.get(kind);
    if (same) same.push(row);
    else kinds.set(kind, [row]);
  }
  for (const same of kinds.values()) {
    for (let first = 0; first < same.length; first += CLAIM_CHUNK) {
      const chunk = same.slice(first, first + CLAIM_CHUNK);
      const ids = chunk.map((row) => row.id);
      if (new Set(ids).size !== ids.length) return false;
      const claim = async () => (await repository.claimMany(chunk[0].entity, chunk, actor, tx)) === chunk.length;
      if (!(await chunk[0].records.changesRecorded(tx, actor, ids, claim, businessId, pending))) return false;
    }
  }
  return true;
}
