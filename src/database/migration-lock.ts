import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { isDatabaseUnavailable, isDeadlock, isUniqueViolation } from '../persistence/database-errors.js';
import { MigrationLockRepository } from './migration-lock.repository.js';

const LOCK_NAME = 'migrations';
/** A holder that stops renewing (crashed, killed, cut off) loses the lock after this long. */
const LOCK_TTL_MS = 30_000;
const RENEW_EVERY_MS = 5_000;
const POLL_EVERY_MS = 500;
/** How long an instance waits for another one's migrations before it gives up starting. */
const WAIT_LIMIT_MS = 10 * 60_000;

/** Where the migration that was running stood: its name and the schema before it (MySQL only). */
export interface MigrationInProgress {
  migration: string;
  schemaBefore: string | null;
}

/** Start-up cannot go on and must not be retried: waiting for the lock timed out. */
export class MigrationLockTimeoutError extends Error {
  override name = 'MigrationLockTimeoutError';
}

/**
 * The lock under which one instance runs the migrations while others starting at the same time wait.
 * It is a row in a table, claimed by a conditional UPDATE, so it holds across the nodes of a Galera
 * cluster (where GET_LOCK is local to one node): two nodes claiming at once write the same row, and
 * certification lets only one of the two commits through. The holder renews its claim while it works;
 * a claim not renewed for LOCK_TTL_MS may be taken over, so a crashed instance blocks nobody for long.
 * The row also records the migration under way, so that the next holder can finish what a crashed one
 * left half done (MySQL runs DDL outside transactions).
 */
export class MigrationLock {
  private readonly owner = randomUUID();
  private readonly logger = new Logger('Migrations');
  private renewal: NodeJS.Timeout | undefined;
  private lost = false;

  private readonly rows: MigrationLockRepository;

  constructor(dataSource: DataSource) {
    this.rows = new MigrationLockRepository(dataSource, LOCK_NAME);
  }

  /** Waits until this instance holds the lock; returns the migration a previous holder left unfinished. */
  async acquire(): Promise<MigrationInProgress | null> {
    await this.ensureTable();
    const started = Date.now();
    let lastNotice = 0;
    for (;;) {
      const claimed = await this.tryClaim();
      if (claimed !== undefined) {
        this.renewal = setInterval(() => void this.renew(), RENEW_EVERY_MS);
        this.renewal.unref();
        return claimed;
      }
      const waited = Date.now() - started;
      if (waited > WAIT_LIMIT_MS)
        throw new MigrationLockTimeoutError(
          `Gave up after waiting ${Math.round(waited / 1000)} s for another instance to finish the migrations`,
        );
      if (Date.now() - lastNotice >= 10_000) {
        lastNotice = Date.now();
        this.logger.log('Another instance is running the migrations; waiting for it');
      }
      await sleep(POLL_EVERY_MS);
    }
  }

  /** Whether another instance took the lock over (this one stopped renewing in time). */
  get wasLost(): boolean {
    return this.lost;
  }

  /** Records the migration about to run and the schema before it; null clears the record. */
  async recordProgress(progress: MigrationInProgress | null): Promise<void> {
    await this.rows.recordProgress(this.owner, progress?.migration ?? null, progress?.schemaBefore ?? null);
  }

  async release(): Promise<void> {
    clearInterval(this.renewal);
    await this.rows
      .release(this.owner)
      .catch((error: unknown) =>
        this.logger.warn(`Could not release the migration lock (it expires by itself): ${(error as Error).message}`),
      );
  }

  /** The lock table and its one row, made by whichever instance comes first. */
  private async ensureTable(): Promise<void> {
    await this.rows.ensureTable();
    await this.retryingConflicts(() => this.rows.ensureRow());
  }

  /**
   * One attempt to claim the lock: free or expired, it becomes ours. Returns the unfinished migration
   * (or null) when claimed, undefined when another instance holds it.
   */
  private async tryClaim(): Promise<MigrationInProgress | null | undefined> {
    const now = Date.now();
    try {
      await this.rows.claim(this.owner, now, now + LOCK_TTL_MS);
    } catch (error) {
      // Another node's claim of the same row won certification.
      if (isDeadlock(error)) return undefined;
      throw error;
    }
    const row = await this.rows.read();
    if (row?.Owner !== this.owner) return undefined;
    return row.Migration ? { migration: row.Migration, schemaBefore: row.SchemaBefore } : null;
  }

  private async renew(): Promise<void> {
    try {
      await this.rows.renew(this.owner, Date.now() + LOCK_TTL_MS);
      if ((await this.rows.owner()) !== this.owner) {
        this.lost = true;
        clearInterval(this.renewal);
        this.logger.error('The migration lock was taken over by another instance');
      }
    } catch (error) {
      // A renewal that fails is tried again at the next tick, well before the claim expires.
      if (!isDeadlock(error) && !isDatabaseUnavailable(error))
        this.logger.warn(`Could not renew the migration lock: ${(error as Error).message}`);
    }
  }

  /** Runs a statement again when it lost a race with the same statement on another node. */
  private async retryingConflicts(statement: () => Promise<unknown>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await statement();
        return;
      } catch (error) {
        if (attempt >= 5 || !(isDeadlock(error) || isUniqueViolation(error))) throw error;
        await sleep(Math.floor(Math.random() * 50 * attempt));
      }
    }
  }
}
