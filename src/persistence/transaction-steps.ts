import type { EntityManager } from 'typeorm';
import type { TransactionScope, TransactionWork } from './driver.js';
import { Tx } from './tx.js';
import type { WriteScope } from './write-scope.js';

/** What each driver keeps about its open transactions, by their entity managers: the steps waiting for the COMMIT (`afterCommit`). */
export class TransactionSteps {
  private readonly committedSteps = new WeakMap<EntityManager, Array<() => void>>();

  /**
   * Runs `step` once the transaction of `manager` has committed, and never when it rolls back (a
   * conflict retried runs its work again, which asks again): counting what happened, not what was tried
   * (the metrics of docs/operations.md). A manager outside any transaction: at once.
   */
  afterCommit(manager: EntityManager, step: () => void): void {
    if (!manager.queryRunner?.isTransactionActive) return step();
    const steps = this.committedSteps.get(manager);
    if (steps) steps.push(step);
    else this.committedSteps.set(manager, [step]);
  }

  /** The steps waiting for the commit of `manager`'s transaction, run once (errors are the steps' own). */
  committed(manager: EntityManager): void {
    const steps = this.committedSteps.get(manager);
    if (!steps) return;
    this.committedSteps.delete(manager);
    for (const step of steps) step();
  }

  /** The transaction rolled back: its waiting steps never run. */
  rolledBack(manager: EntityManager): void {
    this.committedSteps.delete(manager);
  }
}

/**
 * The work, given its unit of work (`Tx`: the transaction's entity manager, the request id, the scope), then
 * the request's steps before COMMIT (its callers check the deadline before they commit).
 */
export async function workThenSteps<T>(
  work: TransactionWork<T>,
  manager: EntityManager,
  scope: TransactionScope | undefined,
  requestId: string | undefined,
): Promise<T> {
  // WriteScope is the one TransactionScope (driver.ts); the drivers only need its shape.
  const tx = new Tx(manager, requestId, scope as WriteScope | undefined);
  const result = await work(tx);
  if (!scope) return result;
  for (const step of scope.beforeCommit) await step(tx, result);
  return result;
}
