import type { Tx } from '../../persistence/tx.js';

/** How much of a credit its uses hold. */
export interface UsesOfCredit {
  /** How many uses it has, returned or not. */
  count: number;
  /** Σ CreditUsed of those not returned, as units. */
  unreturned: bigint;
}

/**
 * A credit's uses are use-history records, a part of billing above the credits (docs/architecture.md §6):
 * the use histories implement this and provide it globally, so the credits' rules name no type of theirs.
 */
export abstract class CreditUses {
  /**
   * The uses of a credit (docs/bookings.md "Credits keep their invariant"), read so that none of them
   * changes until the caller's transaction ends.
   */
  abstract usesOf(creditId: number, tx: Tx): Promise<UsesOfCredit>;
}
