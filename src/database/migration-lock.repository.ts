import type { DataSource } from 'typeorm';
import { isMySqlFamily } from '../persistence/database.js';
import { MYSQL_TABLE_OPTIONS } from './migration-helpers.js';

const LOCK_TABLE = 'migration_lock';

/** The lock row as a claim reads it. */
export interface LockRow {
  Owner: string | null;
  Migration: string | null;
  SchemaBefore: string | null;
}

/** The SQL of the migration lock (migration-lock.ts): its table and the conditional UPDATEs on its one row `name`. */
export class MigrationLockRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly name: string,
  ) {}

  private get q() {
    return (name: string) => this.dataSource.driver.escape(name);
  }

  /** The lock table, made by whichever instance comes first. */
  async ensureTable(): Promise<void> {
    const mySql = isMySqlFamily(this.dataSource);
    await this.dataSource.query(
      `CREATE TABLE IF NOT EXISTS ${this.q(LOCK_TABLE)} (` +
        `${this.q('Name')} varchar(64) NOT NULL PRIMARY KEY, ${this.q('Owner')} varchar(36) NULL, ${this.q('ExpiresAt')} bigint NOT NULL DEFAULT 0, ` +
        `${this.q('Migration')} varchar(255) NULL, ${this.q('SchemaBefore')} ${mySql ? 'longtext' : 'text'} NULL)${mySql ? ` ${MYSQL_TABLE_OPTIONS}` : ''}`,
    );
  }

  /** The lock's row, free; a duplicate is ignored. */
  async ensureRow(): Promise<void> {
    const mySql = isMySqlFamily(this.dataSource);
    await this.dataSource.query(
      `INSERT ${mySql ? 'IGNORE' : 'OR IGNORE'} INTO ${this.q(LOCK_TABLE)} (${this.q('Name')}, ${this.q('ExpiresAt')}) VALUES (?, 0)`,
      [this.name],
    );
  }

  /** Records the migration under way and the schema before it for `owner` while it holds the lock (nulls clear it). */
  async recordProgress(owner: string, migration: string | null, schemaBefore: string | null): Promise<void> {
    await this.dataSource.query(
      `UPDATE ${this.q(LOCK_TABLE)} SET ${this.q('Migration')} = ?, ${this.q('SchemaBefore')} = ? WHERE ${this.q('Name')} = ? AND ${this.q('Owner')} = ?`,
      [migration, schemaBefore, this.name, owner],
    );
  }

  /** Frees the lock when `owner` holds it. */
  async release(owner: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE ${this.q(LOCK_TABLE)} SET ${this.q('Owner')} = NULL, ${this.q('ExpiresAt')} = 0 WHERE ${this.q('Name')} = ? AND ${this.q('Owner')} = ?`,
      [this.name, owner],
    );
  }

  /** Gives the lock to `owner` until `expiresAt` when it is free or expired at `now` (ms since the epoch). */
  async claim(owner: string, now: number, expiresAt: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE ${this.q(LOCK_TABLE)} SET ${this.q('Owner')} = ?, ${this.q('ExpiresAt')} = ? ` +
        `WHERE ${this.q('Name')} = ? AND (${this.q('Owner')} IS NULL OR ${this.q('ExpiresAt')} < ?)`,
      [owner, expiresAt, this.name, now],
    );
  }

  /** The lock's row with the migration it records. */
  async read(): Promise<LockRow | undefined> {
    const [row] = await this.dataSource.query<LockRow[]>(
      `SELECT ${this.q('Owner')}, ${this.q('Migration')}, ${this.q('SchemaBefore')} FROM ${this.q(LOCK_TABLE)} WHERE ${this.q('Name')} = ?`,
      [this.name],
    );
    return row;
  }

  /** Moves `owner`'s claim on to `expiresAt` (nothing when another holds the lock). */
  async renew(owner: string, expiresAt: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE ${this.q(LOCK_TABLE)} SET ${this.q('ExpiresAt')} = ? WHERE ${this.q('Name')} = ? AND ${this.q('Owner')} = ?`,
      [expiresAt, this.name, owner],
    );
  }

  /** Who holds the lock now. */
  async owner(): Promise<string | null | undefined> {
    const [row] = await this.dataSource.query<Array<{ Owner: string | null }>>(
      `SELECT ${this.q('Owner')} FROM ${this.q(LOCK_TABLE)} WHERE ${this.q('Name')} = ?`,
      [this.name],
    );
    return row?.Owner;
  }
}
