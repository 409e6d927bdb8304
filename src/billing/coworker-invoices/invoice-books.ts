import type { Principal } from '../../platform/principal.js';
import type { WireRecord } from '../../records/record-definition.js';
import type { RecordChangeEntry } from '../../records/change-log/change-log.service.js';
import type { Tx } from '../../persistence/tx.js';

/**
 * What an invoice's rules leave to the parts of billing above it (docs/architecture.md §6): its lines, its
 * payments and credit notes (docs/settlement.md) and its own ledger entry are records of those parts, so
 * settlement implements this and provides it globally, and the invoices name none of their types. Every
 * method runs inside the invoice's transaction.
 */
export abstract class InvoiceBooks {
  /** Whether the invoice has lines (then its totals are theirs). */
  abstract hasLines(invoiceId: number, tx: Tx): Promise<boolean>;

  /** Refuses (a 400 naming the field) a change to a stored invoice that its settlement fixes. */
  abstract refuseSettlementChanges(tx: Tx, values: Readonly<Record<string, unknown>>, existing: WireRecord): Promise<void>;

  /** The settled fields of an invoice whose TotalAmount an update changes to `total`. */
  abstract settledWithTotal(id: number, total: number | null, tx: Tx): Promise<Record<string, unknown>>;

  /**
   * Writes the invoice's own ledger entry (INV, or CRN for a credit note), or brings it in line with the
   * invoice as stored now. `issued`: the invoice was issued in this transaction.
   */
  abstract followLedger(invoiceId: number, tx: Tx, actor: Principal | undefined, issued: boolean): Promise<void>;

  /**
   * The own ledger entries of invoices a billing run's batch issued (`followLedger` with `issued`, for many),
   * written by one INSERT: each entry's change by its invoice's Id, for the batch to record with its others.
   */
  abstract followLedgerOfIssued(
    invoiceIds: readonly number[],
    tx: Tx,
    actor: Principal | undefined,
  ): Promise<Map<number, RecordChangeEntry>>;
}
