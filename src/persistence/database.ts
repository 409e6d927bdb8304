import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { PoolUse, RunResult } from './driver.js';
import { isMySqlFamily, openDriver } from './open-driver.js';
import type { MySqlDriver } from './mysql/mysql-driver.js';
import type { SqliteDriver } from './sqlite/sqlite-driver.js';
import { managerOf, Tx } from './tx.js';
import type { WriteScope } from './write-scope.js';

/** Any class: entities and DTOs, as decorators and metadata lookups receive them. */
export type AnyClass = abstract new (...args: any[]) => any;

/** Quoting helpers for read-only fields written as SQL. */
export interface SqlContext {
  /** The alias of the record's own table. */
  alias: string;
  id(name: string): string;
  table(entity: AnyClass): string;
  /** The current UTC date-time as SQL, comparable with stored datetime columns. */
  now: string;
  /** The aggregate that gathers values into a JSON array (`JSON_ARRAYAGG`, `json_group_array`). */
  jsonArrayAgg: string;
}

export { isMySqlFamily };
export type { RunResult };
export { Tx };

/** The table of a row whose turn is taken: its entity, or its name for a table without one (refresh_token). */
export type TurnTable = AnyClass | string;
/** A row's turn: the column that counts its writes (Version, a sequence), or a fixed turn for a one-way change (a token spent). */
export type TurnOf = string | number;

/** How often, at most, old row turns are deleted, and how long they are kept (Database.takeTurn). */
const TURN_CLEANUP_EVERY_MS = 10 * 60_000;
const TURN_KEPT_MS = 60 * 60_000;

/**
 * The database as the service uses it: raw statements with bound parameters, and write transactions.
 * A thin façade over the driver of its database (src/persistence/: sqlite/ with its group commit,
 * mysql/ with conflict retries and Galera causality), which owns the connections; here are the
 * dialect's pieces of SQL text (docs/architecture.md, "The database").
 */
@Injectable()
export class Database implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly isMySql: boolean;
  private readonly driver: MySqlDriver | SqliteDriver;
  /** When `takeTurn` last deleted old turns. */
  private turnsCleanedAt = Date.now();
  private outside: Tx | undefined;

  constructor(readonly dataSource: DataSource) {
    this.driver = openDriver(dataSource);
    this.isMySql = isMySqlFamily(dataSource);
  }

  /** REQUEST_TIMEOUT_MS: a read outside a transaction with no request deadline known is bounded by it (MariaDB). */
  get readTimeoutMs(): number {
    return this.driver.readTimeoutMs;
  }

  set readTimeoutMs(ms: number) {
    this.driver.readTimeoutMs = ms;
  }

  /** SQLite: how long a group commit takes new members (a test may widen it). */
  get groupWindowMs(): number {
    return this.driver.dialect === 'sqlite' ? this.driver.group.windowMs : 0;
  }

  set groupWindowMs(ms: number) {
    if (this.driver.dialect === 'sqlite') this.driver.group.windowMs = ms;
  }

  /** Whether an INSERT can return values (RETURNING): SQLite since 3.35 and MariaDB since 10.5 can, MySQL cannot. */
  supportsReturning(tx?: Tx): Promise<boolean> {
    return this.driver.supportsReturning(managerOf(tx));
  }

  /** MariaDB or MySQL: asked once at start (reads are bounded on MariaDB). */
  async onApplicationBootstrap(): Promise<void> {
    await this.driver.start();
  }

  onApplicationShutdown(): void {
    this.driver.close();
  }

  /** The MySQL pool's connections (open, in use) and the requests waiting for one; null on SQLite (metrics). */
  poolUse(): PoolUse | null {
    return this.driver.poolUse();
  }

  /**
   * Statements outside any transaction sent through TypeORM's own entity manager (no read deadline, and on
   * SQLite a write does not wait for the open transactions): what a few reads before a write's transaction use.
   */
  get outsideTransaction(): Tx {
    return (this.outside ??= new Tx(this.dataSource.manager, undefined, undefined));
  }

  /** Quotes an identifier for this database. */
  id(name: string): string {
    return this.dataSource.driver.escape(name);
  }

  tableOf(entity: AnyClass): string {
    return this.id(this.dataSource.getMetadata(entity).tableName);
  }

  /**
   * Runs SQL with bound parameters straight on the driver: the hot read path skips TypeORM's query
   * runner. Inside a transaction (`tx`) MySQL must use the transaction's connection; SQLite has
   * only the one. A SQLite write outside a transaction waits for open write transactions.
   */
  query<T = Record<string, unknown>>(sql: string, parameters: unknown[] = [], tx?: Tx, deadline?: number): Promise<T[]> {
    return this.driver.query<T>(sql, parameters, managerOf(tx), deadline);
  }

  /**
   * A write statement and what it did (rows changed, the id an INSERT made), the same on both
   * databases. Outside a transaction with a write scope, it runs as `write` does.
   */
  run(sql: string, parameters: unknown[] = [], tx?: Tx, scope?: WriteScope): Promise<RunResult> {
    return this.driver.run(sql, parameters, managerOf(tx), scope);
  }

  /**
   * A read outside any transaction that sees every write the database committed before it was sent, on
   * any node: on a Galera node it first waits until the node has applied what the cluster committed
   * (`wsrep_sync_wait` for this statement only). Elsewhere the same as `query`.
   */
  causalRead<T = Record<string, unknown>>(sql: string, parameters: unknown[] = []): Promise<T[]> {
    return this.driver.causalRead<T>(sql, parameters);
  }

  /**
   * Waits until the node has applied every write the cluster committed before the call, so that what
   * follows (reads outside a transaction included) sees them: a write request's first step on a Galera
   * node (write.interceptor.ts). At once on one server and on SQLite.
   */
  catchUp(): Promise<void> {
    return this.driver.catchUp();
  }

  /** A read whose rows come as arrays of the select list's values, in its order (the hot read path). */
  queryArrays(sql: string, parameters: unknown[] = [], tx?: Tx, deadline?: number): Promise<unknown[][]> {
    return this.driver.queryArrays(sql, parameters, managerOf(tx), deadline);
  }

  /** Runs `step` once the transaction `tx` has committed, never when it rolls back; outside one, at once. */
  afterCommit(tx: Tx, step: () => void): void {
    this.driver.afterCommit(managerOf(tx), step);
  }

  /**
   * A write of one statement outside a transaction, on behalf of a request: on MySQL it runs on a
   * connection of its own so that the answer deadline can interrupt it, and is retried like a
   * transaction when InnoDB aborts it for a lock conflict.
   */
  write<T = Record<string, unknown>>(sql: string, parameters: unknown[], scope: WriteScope | undefined): Promise<T[]> {
    if (!scope) return this.query<T>(sql, parameters);
    return this.driver.write<T>(sql, parameters, scope);
  }

  /**
   * Takes the turn a guarded write just gave the row (its `column` after the write: Version, or a sequence
   * like BookingSequence), inside the write's transaction. On a Galera node a conditional UPDATE can run on
   * a row version another node already replaced (Galera does not prevent lost updates across nodes): both
   * writes then give the row the same turn, and the second's record of it is refused as a duplicate, or
   * loses certification, so its transaction runs again and sees the first (database-errors.ts, counter
   * keys; docs/architecture.md §7). On one server or SQLite the row lock already keeps writes in turn: nothing.
   */
  async takeTurn(tx: Tx, entity: TurnTable, rowId: number, turn: TurnOf = 'Version'): Promise<void> {
    if (!(await this.replicated())) return;
    await this.recordTurn(tx, entity, rowId, turn);
    const now = Date.now();
    if (now - this.turnsCleanedAt < TURN_CLEANUP_EVERY_MS) return;
    this.turnsCleanedAt = now;
    // Turns only collide within a node's apply lag (seconds): an hour's are more than enough to keep.
    this.query(`DELETE FROM ${this.id('row_turn')} WHERE ${this.id('TakenOn')} < ?`, [this.dateParam(new Date(now - TURN_KEPT_MS))]).catch(
      () => undefined,
    );
  }

  /** Whether writes run on several nodes that can each take a row's turn (a Galera cluster). */
  replicated(): Promise<boolean> {
    return this.driver.replicated();
  }

  /**
   * A guarded write of one row (a conditional UPDATE that takes stock, a credit, a pass, a turn): whether it
   * changed the row; when it did, the row's turn after it is taken (`takeTurn`: on Galera, two nodes' writes
   * from one row version cannot both commit).
   */
  async runGuarded(sql: string, parameters: unknown[], tx: Tx, row: { entity: TurnTable; id: number; turn?: TurnOf }): Promise<boolean> {
    if ((await this.run(sql, parameters, tx)).affected !== 1) return false;
    await this.takeTurn(tx, row.entity, row.id, row.turn);
    return true;
  }

  /**
   * Writes rows of an entity in one INSERT built by TypeORM's query builder, so that the entity's column
   * transformers apply (released credits, copied passes).
   */
  async insertEntities(entity: AnyClass, rows: ReadonlyArray<Record<string, unknown>>, tx: Tx): Promise<void> {
    await managerOf(tx).createQueryBuilder().insert().into(entity).values(rows).updateEntity(false).execute();
  }

  /** The statement of `takeTurn`, whatever the database (the SQL snapshots record it). */
  async recordTurn(tx: Tx, entity: TurnTable, rowId: number, turn: TurnOf): Promise<void> {
    const table = typeof entity === 'string' ? entity : this.dataSource.getMetadata(entity).tableName;
    const q = (name: string) => this.id(name);
    const fixed = typeof turn === 'number';
    await this.run(
      `INSERT INTO ${q('row_turn')} (${q('TableName')}, ${q('RowId')}, ${q('Turn')}, ${q('TakenOn')}) SELECT ?, ${q('Id')}, ${fixed ? '?' : q(turn)}, ? FROM ${q(table)} WHERE ${q('Id')} = ?`,
      fixed ? [table, turn, this.dateParam(new Date()), rowId] : [table, this.dateParam(new Date()), rowId],
      tx,
    );
  }

  /**
   * Writes whose loss in a power failure costs nothing but a retry (a download's file, kept for
   * minutes), as one transaction of their own; on SQLite not synced to disk (docs/architecture.md §7).
   */
  transientWrite(statements: ReadonlyArray<readonly [sql: string, parameters: unknown[]]>): Promise<void> {
    return this.driver.transientWrite(statements);
  }

  /** Quoting and dialect pieces for read-only fields written as SQL, on the table aliased `alias`. */
  sqlContext(alias: string): SqlContext {
    return {
      alias,
      id: (name) => this.id(name),
      table: (entity) => this.tableOf(entity),
      // The current UTC date-time, in the form datetime columns are compared with.
      now: this.isMySql ? 'UTC_TIMESTAMP()' : "strftime('%Y-%m-%d %H:%M:%f', 'now')",
      jsonArrayAgg: this.isMySql ? 'JSON_ARRAYAGG' : 'json_group_array',
    };
  }

  /** A datetime as a bound parameter, in the same text both databases store and compare. */
  dateParam(date: Date): string {
    return date.toISOString().replace('T', ' ').replace('Z', '');
  }

  /**
   * Runs `work` in a write transaction. SQLite: in turns, grouped under one COMMIT
   * (src/persistence/sqlite/group-commit.ts). MySQL: in parallel; one that InnoDB aborts to break a
   * deadlock is run again (a few times, after a short random pause), so `work` must do nothing but
   * database work, which the abort rolled back.
   */
  transaction<T>(work: (tx: Tx) => Promise<T>, scope?: WriteScope, requestId = scope?.requestId): Promise<T> {
    return this.driver.transaction(work, scope, requestId, false);
  }

  /**
   * A write transaction whose reads see every write the database committed before it began, on any
   * node: on a Galera node each attempt first waits until the node has applied what the cluster
   * committed (docs/billing.md, "Exactly once"). On one server (and SQLite) the same as `transaction`.
   */
  causalTransaction<T>(work: (tx: Tx) => Promise<T>, scope?: WriteScope, requestId = scope?.requestId): Promise<T> {
    return this.driver.transaction(work, scope, requestId, true);
  }

  /** SQLite: how many WAL pages make the committing connection checkpoint (0: never); nothing on MySQL. */
  setWalAutocheckpoint(pages: number): Promise<void> {
    return this.driver.dialect === 'sqlite' ? this.driver.setWalAutocheckpoint(pages) : Promise.resolve();
  }

  /** The SQLite database's file; null for MySQL and for an in-memory database. */
  sqliteFile(): string | null {
    return this.driver.sqliteFile();
  }
}
