import type { Principal } from '../../platform/principal.js';
import type { Units } from '../../kernel/money.js';
import type { Tx } from '../../persistence/tx.js';

/** A ledger entry as it will be once written, against the invoice whose limits it must respect. */
export interface EntryAgainstInvoice {
  /** The entry's Id when it exists already (its own earlier amounts do not count). */
  id?: number;
  invoiceId: number;
  debit: Units;
  credit: Units;
}

/** The invoice an entry was checked against, locked: its customer is the entry's. */
export interface CheckedInvoice {
  invoice: { CoworkerId: number };
}

/**
 * An entry against an invoice is a payment or refund of it, and settlement, the part of billing above the
 * entries (docs/architecture.md §6), keeps the invoice's limits and settled fields: it implements this and
 * provides it globally, so the entries' rules name none of its classes. Every method locks the invoice and
 * runs inside the entry's transaction (docs/settlement.md).
 */
export abstract class EntrySettlement {
  /** Checks an entry against its invoice's limits (a 400 naming the field). */
  abstract checkEntry(entry: EntryAgainstInvoice, tx: Tx): Promise<CheckedInvoice>;
  /** Checks that an invoice stays within its limits without the entry `except` (being moved away or deleted). */
  abstract checkWithout(invoiceId: number, except: number, tx: Tx, field: string): Promise<void>;
  /** Writes the invoice's settled fields again; `except`: an entry being deleted in this transaction. */
  abstract recompute(invoiceId: number, tx: Tx, actor: Principal | undefined, except?: number): Promise<unknown>;
}
