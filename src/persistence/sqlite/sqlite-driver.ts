import BetterSqlite3 from 'better-sqlite3';
import type { DataSource, EntityManager } from 'typeorm';
import type { DatabaseDriver, RunResult, TransactionScope, TransactionWork } from '../driver.js';
import { TransactionSteps } from '../transaction-steps.js';
import { GroupCommit } from './group-commit.js';

interface SqliteStatement {
  reader: boolean;
  all(...parameters: unknown[]): unknown[];
  run(...parameters: unknown[]): unknown;
  raw(toggle: boolean): SqliteStatement;
}

/** What the driver uses of better-sqlite3's connection (TypeORM's driver holds the one). */
interface SqliteConnection {
  inTransaction: boolean;
  prepare(sql: string): SqliteStatement;
}

/** A statement the reader connection may run: a query, never a PRAGMA (it would set the reader's, not the writer's). */
const QUERY = /^\s*(SELECT|WITH)\b/i;

/** The prepared statements of one connection, by SQL text and row shape (bounded: texts vary with list lengths). */
class StatementCache {
  private readonly objects = new Map<string, SqliteStatement>();
  private readonly arrays = new Map<string, SqliteStatement>();

  constructor(private readonly connection: () => SqliteConnection) {}

  get(sql: string, asArrays = false): SqliteStatement {
    const cache = asArrays ? this.arrays : this.objects;
    let statement = cache.get(sql);
    if (!statement) {
      if (cache.size >= 500) cache.clear();
      statement = this.connection().prepare(sql);
      if (asArrays) statement.raw(true);
      cache.set(sql, statement);
    }
    return statement;
  }
}

/** better-sqlite3 binds no booleans: they go in as 0/1, as the columns store them. */
const sqliteParameters = (parameters: unknown[]): unknown[] =>
  parameters.map((value) => (typeof value === 'boolean' ? Number(value) : value));

/**
 * SQLite over TypeORM's one better-sqlite3 connection: statements straight on it (the hot read path
 * skips TypeORM's query runner), writes in turns and transactions in groups (group-commit.ts). The only
 * code that reads TypeORM's private fields for SQLite (src/internals.spec.ts).
 */
export class SqliteDriver implements DatabaseDriver {
  readonly dialect = 'sqlite';
  readTimeoutMs = 0;
  private readonly steps = new TransactionSteps();
  private readonly statements = new StatementCache(() => this.connection);
  /**
   * A second connection to the database file for the reads from outside the open write transaction: in WAL
   * mode it reads the last COMMIT at once, so a GET never waits for a billing run's batch or a group to
   * commit (docs/architecture.md §7, "Group commit"). None for an in-memory database (one connection is the
   * database): there such reads wait for the COMMIT. Opened on first use, after the migrations.
   */
  private reader: { connection: BetterSqlite3.Database; statements: StatementCache } | null | undefined;
  readonly group: GroupCommit;
  /** The connection's own `synchronous` level, which every commit but a transient write keeps. */
  private durableSync: number | undefined;

  constructor(private readonly dataSource: DataSource) {
    this.group = new GroupCommit(
      dataSource,
      {
        exec: (sql) => void this.statement(sql).run(),
        inTransaction: () => this.connection.inTransaction,
      },
      this.steps,
    );
  }

  /** TypeORM's BetterSqlite3Driver keeps its connection as `databaseConnection` (no public accessor). */
  private get connection(): SqliteConnection {
    return (this.dataSource.driver as unknown as { databaseConnection: SqliteConnection }).databaseConnection;
  }

  async start(): Promise<void> {}

  close(): void {
    this.reader?.connection.close();
    this.reader = null;
  }

  supportsReturning(): Promise<boolean> {
    return Promise.resolve(true);
  }

  poolUse(): null {
    return null;
  }

  sqliteFile(): string | null {
    const { options } = this.dataSource;
    if (options.type !== 'better-sqlite3' || typeof options.database !== 'string' || options.database === ':memory:') return null;
    return options.database;
  }

  /**
   * SQLite has only the one connection. A read from outside the open transaction waits for its end; a
   * write outside a transaction waits for open write transactions, so it never lands inside (and rolls
   * back with) another request's transaction.
   */
  query<T>(sql: string, parameters: unknown[], manager?: EntityManager): Promise<T[]> {
    return this.statementOn<T>(sql, parameters, manager);
  }

  /** How many WAL pages make the committing connection checkpoint; 0: never (src/database/sqlite-checkpoints.ts). */
  async setWalAutocheckpoint(pages: number): Promise<void> {
    await this.query(`PRAGMA wal_autocheckpoint = ${Math.trunc(pages)}`, []);
  }

  /** better-sqlite3 builds an array per row for about half the cost of an object with a property per column. */
  queryArrays(sql: string, parameters: unknown[], manager?: EntityManager): Promise<unknown[][]> {
    return this.read<unknown[]>(this.statement(sql, true), sql, sqliteParameters(parameters), manager, true);
  }

  /** better-sqlite3 answers a write with `changes` and `lastInsertRowid`. */
  async run(sql: string, parameters: unknown[], manager?: EntityManager, scope?: TransactionScope): Promise<RunResult> {
    const outcome = (await this.statementOn(sql, parameters, manager, scope)) as unknown as {
      changes?: number;
      lastInsertRowid?: number | bigint;
    };
    return { affected: Number(outcome.changes ?? 0), insertId: Number(outcome.lastInsertRowid) };
  }

  write<T>(sql: string, parameters: unknown[], scope: TransactionScope): Promise<T[]> {
    return this.statementOn<T>(sql, parameters, undefined, scope);
  }

  /** One database: every read sees what was committed. */
  causalRead<T>(sql: string, parameters: unknown[]): Promise<T[]> {
    return this.query<T>(sql, parameters);
  }

  async replicated(): Promise<boolean> {
    return false;
  }

  /** One database: nothing to wait for. */
  async catchUp(): Promise<void> {}

  /** Takes its turn in a group (group-commit.ts); `causal` changes nothing on one database. */
  transaction<T>(work: TransactionWork<T>, scope: TransactionScope | undefined, requestId: string | undefined): Promise<T> {
    return this.group.transaction(work, scope, requestId);
  }

  afterCommit(manager: EntityManager, step: () => void): void {
    this.steps.afterCommit(manager, step);
  }

  /** A statement; a write outside a transaction takes its turn after the open ones. */
  private statementOn<T>(sql: string, parameters: unknown[], manager?: EntityManager, scope?: TransactionScope): Promise<T[]> {
    const bound = sqliteParameters(parameters);
    const statement = this.statement(sql);
    if (statement.reader) return this.read<T>(statement, sql, bound, manager, false);
    if (manager) return Promise.resolve(statement.run(...bound) as never);
    return this.group.afterQueuedWrites(() => {
      // Its turn may come after the request's deadline: then it must not write.
      scope?.check();
      return statement.run(...bound) as never;
    });
  }

  /**
   * Commits without waiting for the disk (`synchronous = NORMAL` for this one commit), so the request
   * thread does not stall in an fsync for a file (docs/architecture.md §7): in WAL mode the database
   * stays consistent whatever is lost, and the next ordinary commit's sync makes these pages durable too.
   */
  async transientWrite(statements: ReadonlyArray<readonly [sql: string, parameters: unknown[]]>): Promise<void> {
    await this.group.afterQueuedWrites(() => {
      const durable = (this.durableSync ??= Number((this.statement('PRAGMA synchronous').all()[0] as { synchronous: number }).synchronous));
      this.statement('PRAGMA synchronous = NORMAL').run();
      try {
        this.statement('BEGIN').run();
        for (const [sql, parameters] of statements) this.statement(sql).run(...sqliteParameters(parameters));
        this.statement('COMMIT').run();
      } catch (error) {
        if (this.connection.inTransaction) this.statement('ROLLBACK').run();
        throw error;
      } finally {
        this.statement(`PRAGMA synchronous = ${durable}`).run();
      }
    });
  }

  /**
   * A read: on the connection of the open transaction when it is the transaction's (or none is open); from
   * outside it, on the reader connection (the last COMMIT), or after the COMMIT where there is no reader.
   */
  private read<T>(
    statement: SqliteStatement,
    sql: string,
    bound: unknown[],
    manager: EntityManager | undefined,
    asArrays: boolean,
  ): Promise<T[]> {
    if (!this.group.readsWait(manager)) return Promise.resolve(statement.all(...bound) as T[]);
    const reader = QUERY.test(sql) ? this.readerConnection() : null;
    if (reader) return Promise.resolve(reader.statements.get(sql, asArrays).all(...bound) as T[]);
    return this.group.afterOpenTransaction(manager, () => statement.all(...bound) as T[]);
  }

  private readerConnection(): { connection: BetterSqlite3.Database; statements: StatementCache } | null {
    if (this.reader !== undefined) return this.reader;
    const file = this.sqliteFile();
    if (!file) return (this.reader = null);
    const connection = new BetterSqlite3(file, { fileMustExist: true });
    connection.pragma('busy_timeout = 5000');
    // It only reads: a write sent to it by mistake fails rather than racing the writer's transactions.
    connection.pragma('query_only = ON');
    return (this.reader = { connection, statements: new StatementCache(() => connection) });
  }

  /** Statements are prepared once per SQL text and row shape, on TypeORM's connection. */
  private statement(sql: string, asArrays = false): SqliteStatement {
    return this.statements.get(sql, asArrays);
  }
}
