import { setTimeout } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import { DataSource, QueryFailedError, type EntityManager } from 'typeorm';
import type { AnyClass } from './columns.js';
import type { SqlContext } from './record-definition.js';

interface SqliteStatement {
  reader: boolean;
  all(...parameters: unknown[]): unknown[];
  run(...parameters: unknown[]): unknown;
  raw(toggle: boolean): SqliteStatement;
}

type MySqlCallback = (error: Error | null, rows: unknown) => void;
interface MySqlPool {
  execute(options: { sql: string; rowsAsArray: boolean }, values: unknown[], callback: MySqlCallback): void;
}

/** How many times a MySQL transaction aborted by a deadlock is tried in all. */
const DEADLOCK_ATTEMPTS = 5;

/**
 * The database as the record machinery uses it: raw reads with bound parameters, and write
 * transactions. SQLite has one connection and TypeORM nests concurrent transactions on it as
 * savepoints of each other, so there write transactions take turns; MySQL runs them in parallel.
 */
@Injectable()
export class Database {
  readonly isMySql: boolean;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly statements = new Map<string, SqliteStatement>();
  private readonly arrayStatements = new Map<string, SqliteStatement>();

  constructor(readonly dataSource: DataSource) {
    this.isMySql = isMySqlFamily(dataSource);
  }

  get manager(): EntityManager {
    return this.dataSource.manager;
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
   * runner. Inside a transaction (`manager`) MySQL must use the transaction's connection; SQLite has
   * only the one. A SQLite write outside a transaction waits for open write transactions, so it
   * never lands inside (and rolls back with) another request's transaction.
   */
  query<T = Record<string, unknown>>(sql: string, parameters: unknown[] = [], manager?: EntityManager): Promise<T[]> {
    if (this.isMySql) {
      if (manager) return manager.query(sql, parameters);
      return this.execute<T>(sql, parameters, false);
    }
    const bound = sqliteParameters(parameters);
    const statement = this.statement(sql);
    if (statement.reader) return Promise.resolve(statement.all(...bound) as T[]);
    if (manager) return Promise.resolve(statement.run(...bound) as never);
    const run = this.queue.then(() => statement.run(...bound) as never);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * A read whose rows come as arrays of the select list's values, in its order: the hot read path
   * takes its columns by position, and the drivers build an array per row for about half the cost of
   * an object with a property per column.
   */
  async queryArrays(sql: string, parameters: unknown[] = [], manager?: EntityManager): Promise<unknown[][]> {
    if (this.isMySql) {
      if (manager) return (await manager.query<Array<Record<string, unknown>>>(sql, parameters)).map((row) => Object.values(row));
      return this.execute<unknown[]>(sql, parameters, true);
    }
    return this.statement(sql, true).all(...sqliteParameters(parameters)) as unknown[][];
  }

  /**
   * A MySQL statement outside a transaction, prepared once per connection (mysql2 keeps them): the
   * server parses and plans it once, not on every request, which took 40% off its CPU for a record
   * read. (Transactions run on TypeORM's query runner, as text.)
   */
  private execute<T>(sql: string, parameters: unknown[], rowsAsArray: boolean): Promise<T[]> {
    const pool = (this.dataSource.driver as unknown as { pool: MySqlPool }).pool;
    return new Promise((resolve, reject) => pool.execute({ sql, rowsAsArray }, parameters, (error, rows) => (error ? reject(error) : resolve(rows as T[]))));
  }

  /**
   * SQLite statements are prepared once per SQL text and row shape (bounded caches: texts vary with
   * list lengths).
   */
  private statement(sql: string, asArrays = false): SqliteStatement {
    const cache = asArrays ? this.arrayStatements : this.statements;
    let statement = cache.get(sql);
    if (!statement) {
      if (cache.size >= 500) cache.clear();
      const connection = (this.dataSource.driver as unknown as { databaseConnection: { prepare(sql: string): SqliteStatement } }).databaseConnection;
      statement = connection.prepare(sql);
      if (asArrays) statement.raw(true);
      cache.set(sql, statement);
    }
    return statement;
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
   * Runs `work` in a write transaction. On MySQL a transaction that InnoDB aborts to break a deadlock
   * is run again (a few times, after a short random pause), as InnoDB advises; so `work` must do
   * nothing but database work, which the abort rolled back.
   */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (this.isMySql) return this.retryingDeadlocks(work);
    const run = this.queue.then(() => this.dataSource.transaction(work));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async retryingDeadlocks<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.dataSource.transaction(work);
      } catch (error) {
        if (attempt >= DEADLOCK_ATTEMPTS || !isDeadlock(error)) throw error;
        await setTimeout(Math.floor(Math.random() * 10 * attempt));
      }
    }
  }
}

/** better-sqlite3 binds no booleans: they go in as 0/1, as the columns store them. */
const sqliteParameters = (parameters: unknown[]): unknown[] => parameters.map((value) => (typeof value === 'boolean' ? Number(value) : value));

/** MySQL or MariaDB (TypeORM's two dialects over the same mysql2 driver). */
export const isMySqlFamily = (dataSource: DataSource): boolean => dataSource.options.type === 'mysql' || dataSource.options.type === 'mariadb';

type DriverError = { code?: string; errno?: number; message?: string };

function driverError(error: unknown): DriverError | undefined {
  if (error instanceof QueryFailedError) return (error as QueryFailedError & { driverError: DriverError }).driverError;
  return error as DriverError | undefined;
}

/** Connection-level failures: the database is stopped, unreachable, full, or went away mid-query. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE',
  'PROTOCOL_CONNECTION_LOST', 'PROTOCOL_SEQUENCE_TIMEOUT', 'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR', 'PROTOCOL_ENQUEUE_AFTER_QUIT',
  'ER_CON_COUNT_ERROR', 'ER_TOO_MANY_USER_CONNECTIONS', 'ER_SERVER_SHUTDOWN', 'ER_QUERY_INTERRUPTED', 'ER_CONNECTION_KILLED',
  'SQLITE_BUSY', 'SQLITE_LOCKED',
  // A Galera node that is joining, left the cluster's majority, or is not synced refuses queries with
  // errno 1047, "WSREP has not yet prepared node for application use".
  'ER_UNKNOWN_COM_ERROR',
]);
/** TypeORM's own "there is no usable connection" errors, by class name. */
const UNAVAILABLE_ERRORS = new Set(['CannotExecuteNotConnectedError', 'ConnectionIsNotSetError', 'ConnectionNotFoundError', 'PoolClosedError']);
/** mysql2's pool refusals, which carry no code. */
const UNAVAILABLE_MESSAGES = /^(Queue limit reached|Pool is closed|No connections available|Connection lost|Can't add new command when connection is in closed state)/i;

/**
 * Whether an error means the database cannot be reached right now (the request may succeed later),
 * as opposed to a bad query or a refused write. Looks through TypeORM's wrappers and error causes.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const candidate = e as DriverError & { fatal?: boolean; name?: string; driverError?: unknown; cause?: unknown };
    if (candidate.code && UNAVAILABLE_CODES.has(candidate.code)) return true;
    // mysql2 marks errors that broke the connection itself as fatal.
    if (candidate.fatal === true) return true;
    if (candidate.name && UNAVAILABLE_ERRORS.has(candidate.name)) return true;
    if (typeof candidate.message === 'string' && UNAVAILABLE_MESSAGES.test(candidate.message)) return true;
    e = candidate.driverError ?? candidate.cause;
  }
  return false;
}

/** A write refused because other records refer to the row (or it refers to a missing one). */
export function isForeignKeyViolation(error: unknown): boolean {
  const e = driverError(error);
  // SQLite reports an ON DELETE RESTRICT refusal as a trigger constraint with the foreign-key message.
  const sqlite = e?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || (e?.code === 'SQLITE_CONSTRAINT_TRIGGER' && /FOREIGN KEY/i.test(e.message ?? ''));
  return sqlite || e?.errno === 1451 || e?.errno === 1452;
}

export function isUniqueViolation(error: unknown): boolean {
  const e = driverError(error);
  return e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || e?.errno === 1062;
}

/**
 * InnoDB rolled the transaction back to break a deadlock: running it again is safe. A Galera node
 * reports a transaction that lost certification to a conflicting one from another node the same way.
 */
export function isDeadlock(error: unknown): boolean {
  return driverError(error)?.errno === 1213;
}
