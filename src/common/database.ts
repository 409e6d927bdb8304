import { Injectable } from '@nestjs/common';
import { DataSource, QueryFailedError, type EntityManager } from 'typeorm';
import type { AnyClass } from './columns.js';

/**
 * The database as the record machinery uses it: raw reads with bound parameters, and write
 * transactions. SQLite has one connection and TypeORM nests concurrent transactions on it as
 * savepoints of each other, so there write transactions take turns; MySQL runs them in parallel.
 */
@Injectable()
export class Database {
  readonly isMySql: boolean;
  private queue: Promise<unknown> = Promise.resolve();

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

  query<T = Record<string, unknown>>(sql: string, parameters: unknown[] = [], manager?: EntityManager): Promise<T[]> {
    return (manager ?? this.dataSource.manager).query(sql, parameters);
  }

  /** A datetime as a bound parameter, in the same text both databases store and compare. */
  dateParam(date: Date): string {
    return date.toISOString().replace('T', ' ').replace('Z', '');
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (this.isMySql) return this.dataSource.transaction(work);
    const run = this.queue.then(() => this.dataSource.transaction(work));
    this.queue = run.catch(() => undefined);
    return run;
  }
}

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
