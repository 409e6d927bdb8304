import { setTimeout } from 'node:timers/promises';
import { isTransientConflict } from '../database-errors.js';
import type { TransactionScope } from '../driver.js';

/**
 * A MySQL transaction (or a lone statement) that InnoDB aborted to break a deadlock, or that waited too
 * long for a lock, runs again (on Galera also one that lost certification, or took a counter's number
 * another node took: database-errors.ts). The pauses between grow and are random, so the colliding
 * writers come back at different moments.
 *
 * It is tried at least CONFLICT_ATTEMPTS times, and after that for as long as its time budget lasts
 * (REQUEST_TIMEOUT_MS; the request's deadline, when it has one, ends it sooner). A count alone is not
 * enough on Galera: two dozen billing runs for one customer through three nodes take the customer's turn
 * one after another, each certification aborting the ones that raced it on other nodes, and the last of
 * them waits for all the others' work (docs/billing.md, "Exactly once") — longer than eight short pauses.
 */
const CONFLICT_ATTEMPTS = 8;
const conflictPause = (attempt: number) => Math.floor(Math.random() * Math.min(250, 4 * 2 ** attempt));

/**
 * Runs `once` again while it fails for a lock conflict (deadlock, lock wait timeout), at least
 * CONFLICT_ATTEMPTS times in all and then while `budgetMs` (from the first attempt) lasts, never past
 * the request's deadline. `once` must do nothing but database work, which the abort rolled back, as
 * InnoDB advises.
 */
export async function retryConflicts<T>(
  once: () => Promise<T>,
  scope: TransactionScope | undefined,
  budgetMs: number,
  firstAttempt = 1,
): Promise<T> {
  const giveUpAt = Date.now() + budgetMs;
  for (let attempt = firstAttempt; ; attempt++) {
    try {
      return await once();
    } catch (error) {
      if (!isTransientConflict(error) || scope?.expired) throw error;
      const pause = conflictPause(attempt);
      if (attempt >= CONFLICT_ATTEMPTS && Date.now() + pause >= giveUpAt) throw error;
      await setTimeout(pause);
    }
  }
}
