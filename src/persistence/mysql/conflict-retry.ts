import { setTimeout } from 'node:timers/promises';
import { isTransientConflict } from '../database-errors.js';
import type { TransactionScope } from '../driver.js';

/**
 * How many times a MySQL transaction (or a lone statement) that InnoDB aborted to break a deadlock,
 * or that waited too long for a lock, is tried in all (on Galera also one that lost certification, or
 * took a counter's number another node took: database-errors.ts); the pauses between grow and are
 * random, so the colliding writers come back at different moments.
 */
const CONFLICT_ATTEMPTS = 8;
const conflictPause = (attempt: number) => Math.floor(Math.random() * Math.min(250, 4 * 2 ** attempt));

/**
 * Runs `once` again while it fails for a lock conflict (deadlock, lock wait timeout), a bounded
 * number of times after growing random pauses, and never past the request's deadline. `once` must do
 * nothing but database work, which the abort rolled back, as InnoDB advises.
 */
export async function retryConflicts<T>(once: () => Promise<T>, scope: TransactionScope | undefined, firstAttempt = 1): Promise<T> {
  for (let attempt = firstAttempt; ; attempt++) {
    try {
      return await once();
    } catch (error) {
      if (attempt >= CONFLICT_ATTEMPTS || !isTransientConflict(error) || scope?.expired) throw error;
      await setTimeout(conflictPause(attempt));
    }
  }
}
