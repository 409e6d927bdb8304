import type { EntityManager } from 'typeorm';
import type { TransactionScope, TransactionWork } from './driver.js';

/**
 * What each driver keeps about its open transactions, by their entity managers: the request id the
 * work is done for (the change log records it) and the steps waiting for the COMMIT (`afterCommit`).
 */
export class TransactionSteps {
  private readonly requestIds = new WeakMap<EntityManager, string>();
  private readonly committedSteps = new WeakMap<EntityManager, Array<() => void>>();

  /** A transaction begins for `requestId` with the entity manager its work is given. */
  begin(manager: EntityManager, requestId: string | undefined): void {
    if (requestId !== undefined) this.requestIds.set(manager, requestId);
  }

  requestIdOf(manager: EntityManager): string | undefined {
    return this.requestIds.get(manager);
  }

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

/** The work, then the request's steps before COMMIT (its callers check the deadline before they commit). */
export async function workThenSteps<T>(work: TransactionWork<T>, manager: EntityManager, scope: TransactionScope | undefined): Promise<T> {
  const result = await work(manager);
  if (!scope) return result;
  for (const step of scope.beforeCommit) await step(manager, result);
  return result;
}
