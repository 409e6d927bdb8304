import { setTimeout } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import { DataSource, QueryFailedError, type EntityManager } from 'typeorm';
import type { AnyClass } from './columns.js';

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

  constructor(readonly dataSource: DataSource) {
    this.isMySql = dataSource.options.type === 'mysql';
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

type DriverError = { code?: string; errno?: number; message?: string };

function driverError(error: unknown): DriverError | undefined {
  if (error instanceof QueryFailedError) return (error as QueryFailedError & { driverError: DriverError }).driverError;
  return error as DriverError | undefined;
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

/** InnoDB rolled the transaction back to break a deadlock: running it again is safe. */
export function isDeadlock(error: unknown): boolean {
  return driverError(error)?.errno === 1213;
}
