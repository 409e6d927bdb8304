import { Injectable } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { WebhooksRepository } from './webhooks.repository.js';

/**
 * How long an instance trusts what it last read of the active hooks, and so how long a write that may
 * add an active hook waits after its commit before it answers (docs/architecture.md
 * §2.5). It is read again when half of it has passed and changes are being made.
 */
export const HOOK_INDEX_LEASE_MS = 200;

/**
 * Which businesses have active hooks for which actions, as this instance last read them: so that a
 * change no hook waits for costs the database nothing for webhooks (the change log's probe is skipped).
 * Only a "none" is answered from it, and only while the reading is younger than the lease; anything
 * else (a hook known, no recent reading) goes to the probe in the change's transaction, which is exact.
 * A write that may add an active hook (a create, an update) waits out the lease after its commit, so
 * that once it has answered, no instance still holds a reading from before it (docs/architecture.md §2.5, docs/api.md §7).
 */
@Injectable()
export class ActiveHookIndex {
  /** Business id → the actions its active hooks wait for; `readAt` when the reading was asked for (performance.now()). */
  private reading: { actions: Map<number, Set<number>>; readAt: number } | null = null;
  private refreshing = false;
  /** Counts this instance's hook writes: a reading begun before one is not kept. */
  private hookWrites = 0;

  constructor(private readonly hooks: WebhooksRepository) {}

  /**
   * True only when a reading younger than the lease found no active hook of the business for any of
   * `actions`. An old or missing reading answers false (ask the database) and is read again.
   */
  surelyNone(businessId: number, actions: readonly number[]): boolean {
    const reading = this.reading;
    const age = reading ? this.now() - reading.readAt : Infinity;
    if (age >= HOOK_INDEX_LEASE_MS / 2) this.refresh();
    if (!reading || age >= HOOK_INDEX_LEASE_MS) return false;
    const active = reading.actions.get(businessId);
    return !active || !actions.some((action) => active.has(action));
  }

  /**
   * After a hook write committed, before it answers: forgets this instance's reading and waits until
   * every instance's reading from before the commit has expired.
   */
  async hookWritten(): Promise<void> {
    this.hookWrites++;
    this.reading = null;
    await sleep(HOOK_INDEX_LEASE_MS);
  }

  /** A monotonic clock in milliseconds (a test's own, in the unit test). */
  protected now(): number {
    return performance.now();
  }

  private refresh(): void {
    if (this.refreshing) return;
    this.refreshing = true;
    const writes = this.hookWrites;
    // Taken before the query is sent: the reading holds every hook committed before this moment.
    const readAt = this.now();
    this.hooks
      .activeActions()
      .then((actions) => {
        if (writes === this.hookWrites) this.reading = { actions, readAt };
      })
      // A failed reading leaves the old one to expire: changes then ask the database, as without the index.
      .catch(() => undefined)
      .finally(() => (this.refreshing = false));
  }
}
