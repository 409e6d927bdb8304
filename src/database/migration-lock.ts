import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { isMySqlFamily } from '../common/database.js';
import { isDatabaseUnavailable, isDeadlock, isUniqueViolation } from '../common/database-errors.js';
import { MYSQL_TABLE_OPTIONS } from './migration-helpers.js';

const LOCK_TABLE = 'migration_lock';
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

  constructor(private readonly dataSource: DataSource) {}

  private get q() {
    return (name: string) => this.dataSource.driver.escape(name);
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
      if (waited > WAIT_LIMIT_MS) throw new MigrationLockTimeoutError(`Gave up after waiting ${Math.round(waited / 1000)} s for another instance to finish the migrations`);
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
    await this.dataSource.query(
      `UPDATE ${this.q(LOCK_TABLE)} SET ${this.q('Migration')} = ?, ${this.q('SchemaBefore')} = ? WHERE ${this.q('Name')} = ? AND ${this.q('Owner')} = ?`,
      [progress?.migration ?? null, progress?.schemaBefore ?? null, LOCK_NAME, this.owner],
    );
  }

  async release(): Promise<void> {
    clearInterval(this.renewal);
    await this.dataSource.query(
      `UPDATE ${this.q(LOCK_TABLE)} SET ${this.q('Owner')} = NULL, ${this.q('ExpiresAt')} = 0 WHERE ${this.q('Name')} = ? AND ${this.q('Owner')} = ?`,
      [LOCK_NAME, this.owner],
    ).catch((error: unknown) => this.logger.warn(`Could not release the migration lock (it expires by itself): ${(error as Error).message}`));
  }

  /** The lock table and its one row, made by whichever instance comes first. */
  private async ensureTable(): Promise<void> {
    const mySql = isMySqlFamily(this.dataSource);
    await this.dataSource.query(
      `CREATE TABLE IF NOT EXISTS ${this.q(LOCK_TABLE)} (` +
        `${this.q('Name')} varchar(64) NOT NULL PRIMARY KEY, ${this.q('Owner')} varchar(36) NULL, ${this.q('ExpiresAt')} bigint NOT NULL DEFAULT 0, ` +
        `${this.q('Migration')} varchar(255) NULL, ${this.q('SchemaBefore')} ${mySql ? 'longtext' : 'text'} NULL)${mySql ? ` ${MYSQL_TABLE_OPTIONS}` : ''}`,
    );
    await this.retryingConflicts(() => this.dataSource.query(
      `INSERT ${mySql ? 'IGNORE' : 'OR IGNORE'} INTO ${this.q(LOCK_TABLE)} (${this.q('Name')}, ${this.q('ExpiresAt')}) VALUES (?, 0)`,
      [LOCK_NAME],
    ));
  }

  /**
   * One attempt to claim the lock: free or expired, it becomes ours. Returns the unfinished migration
   * (or null) when claimed, undefined when another instance holds it.
   */
  private async tryClaim(): Promise<MigrationInProgress | null | undefined> {
    const now = Date.now();
    try {
      await this.dataSource.query(
        `UPDATE ${this.q(LOCK_TABLE)} SET ${this.q('Owner')} = ?, ${this.q('ExpiresAt')} = ? ` +
          `WHERE ${this.q('Name')} = ? AND (${this.q('Owner')} IS NULL OR ${this.q('ExpiresAt')} < ?)`,
        [this.owner, now + LOCK_TTL_MS, LOCK_NAME, now],
      );
    } catch (error) {
      // Another node's claim of the same row won certification.
      if (isDeadlock(error)) return undefined;
      throw error;
    }
    const [row] = await this.dataSource.query<Array<{ Owner: string | null; Migration: string | null; SchemaBefore: string | null }>>(
      `SELECT ${this.q('Owner')}, ${this.q('Migration')}, ${this.q('SchemaBefore')} FROM ${this.q(LOCK_TABLE)} WHERE ${this.q('Name')} = ?`,
      [LOCK_NAME],
    );
    if (row?.Owner !== this.owner) return undefined;
    return row.Migration ? { migration: row.Migration, schemaBefore: row.SchemaBefore } : null;
  }

  private async renew(): Promise<void> {
    try {
      await this.dataSource.query(
        `UPDATE ${this.q(LOCK_TABLE)} SET ${this.q('ExpiresAt')} = ? WHERE ${this.q('Name')} = ? AND ${this.q('Owner')} = ?`,
        [Date.now() + LOCK_TTL_MS, LOCK_NAME, this.owner],
      );
      const [row] = await this.dataSource.query<Array<{ Owner: string | null }>>(
        `SELECT ${this.q('Owner')} FROM ${this.q(LOCK_TABLE)} WHERE ${this.q('Name')} = ?`,
        [LOCK_NAME],
      );
      if (row?.Owner !== this.owner) {
        this.lost = true;
        clearInterval(this.renewal);
        this.logger.error('The migration lock was taken over by another instance');
      }
    } catch (error) {
      // A renewal that fails is tried again at the next tick, well before the claim expires.
      if (!isDeadlock(error) && !isDatabaseUnavailable(error)) this.logger.warn(`Could not renew the migration lock: ${(error as Error).message}`);
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
