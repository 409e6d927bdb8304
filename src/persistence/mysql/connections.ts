import type { EntityManager } from 'typeorm';
import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable } from '../database-errors.js';

// The mysql2 connections the MySQL driver uses besides TypeORM's (docs/architecture.md, "The
// database"): a transaction's own connection for its statements, and one apart for KILL QUERY.

export type MySqlCallback = (error: Error | null, rows: unknown, fields?: readonly unknown[]) => void;
export interface MySqlConnection {
  threadId: number;
  execute(sql: string, values: unknown[], callback: MySqlCallback): void;
  query(sql: string, callback: MySqlCallback): void;
  release(): void;
  end(callback?: () => void): void;
  destroy(): void;
  on(event: 'error', listener: (error: Error) => void): void;
}
export interface MySqlPool {
  execute(sql: string, values: unknown[], callback: MySqlCallback): void;
  getConnection(callback: (error: Error | null, connection: MySqlConnection) => void): void;
  on(event: 'connection', listener: (connection: MySqlConnection) => void): void;
}

/**
 * MySQL write transactions read committed rows: a write that waited for a row lock then reads what
 * the writer before it committed (an id list diffed after the parent row's lock, an attendee count),
 * and plain reads and searches take no gap locks, which made parallel inserts into one join table
 * deadlock under REPEATABLE READ. The rules that need more lock a row (stock, invoice counter, an
 * event's places) or rest on a unique index.
 */
export const WRITE_ISOLATION = 'SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED';

/** mysql2 options of a pool that a single connection does not take. */
const POOL_ONLY_OPTIONS = ['connectionLimit', 'queueLimit', 'maxIdle', 'idleTimeout', 'waitForConnections', 'acquireTimeout'];

/**
 * A connection of its own for KILL QUERY, opened on first use with the pool's settings, so that
 * interrupting a statement never waits for a pooled connection. Opened again after it fails.
 */
/** How long a KILL QUERY may go unanswered before its connection is taken for dead. */
const KILL_ANSWER_MS = 1000;

export class StatementKiller {
  private connection: MySqlConnection | null = null;

  constructor(private readonly driver: unknown) {}

  /**
   * Sends KILL QUERY for the thread. The connection kept for it may have died unseen (a database that
   * went away and came back, a network that dropped it silently): a KILL that fails for the connection
   * or gets no answer within a second drops it and is sent once more on a fresh one, so a deadline
   * still stops its statement after database outages.
   */
  kill(threadId: number, retry = true): void {
    const connection = this.connection ?? this.connect();
    let answered = false;
    const again = () => {
      this.drop(connection);
      if (retry) this.kill(threadId, false);
    };
    const silence = setTimeout(() => {
      if (!answered) again();
    }, KILL_ANSWER_MS).unref();
    // The thread id is the driver's integer, not client input.
    connection.query(`KILL QUERY ${Math.trunc(Number(threadId))}`, (error: unknown) => {
      answered = true;
      clearTimeout(silence);
      // An unknown thread (its statement ended already) is no failure of the connection.
      if (error && isDatabaseUnavailable(error)) again();
    });
  }

  private connect(): MySqlConnection {
    type Driver = {
      mysql: { createConnection(config: unknown): MySqlConnection };
      options: unknown;
      createConnectionOptions(options: unknown, credentials: unknown): object;
    };
    const driver = this.driver as Driver;
    const options: Record<string, unknown> = { ...driver.createConnectionOptions(driver.options, driver.options) };
    for (const poolOnly of POOL_ONLY_OPTIONS) delete options[poolOnly];
    const connection = driver.mysql.createConnection(options);
    connection.on('error', () => {
      if (this.connection === connection) this.connection = null;
    });
    this.connection = connection;
    return connection;
  }

  private drop(connection: MySqlConnection): void {
    if (this.connection === connection) this.connection = null;
    connection.destroy();
  }

  close(): void {
    this.connection?.end();
    this.connection = null;
  }
}

/**
 * The mysql2 connection of a transaction's query runner. Statements inside a write transaction go
 * straight to it as prepared statements, as those outside go to the pool: TypeORM's own `query` wraps
 * every statement in a new promise connection, formats its parameters into the text and broadcasts
 * events, which made up a third of a create's CPU on MySQL (docs/architecture.md, "The database").
 */
export function transactionConnection(manager: EntityManager | undefined): MySqlConnection | undefined {
  const runner = manager?.queryRunner;
  if (!runner || runner.isReleased || !runner.isTransactionActive) return undefined;
  return (runner as unknown as { databaseConnection: MySqlConnection }).databaseConnection;
}

/** A prepared statement on one mysql2 connection, failing as TypeORM's queries fail. */
export function executeOn<T>(connection: MySqlConnection, sql: string, parameters: unknown[], rowsAsArray: boolean): Promise<T[]> {
  return new Promise<T[]>((resolve, reject) =>
    executeStatement(
      connection,
      sql,
      parameters.map((value) => (value === undefined ? null : value)),
      rowsAsArray,
      (error, rows) => (error ? reject(new QueryFailedError(sql, parameters, error)) : resolve(rows as T[])),
    ),
  );
}

/**
 * A prepared statement on a connection or the pool, always through mysql2's `execute(sql, values, cb)`.
 * Its other form, `execute({ sql, rowsAsArray }, …)`, copies the options with object spread, and V8 on
 * Node 20 allocates spread objects in the old generation: each statement's options then kept what they
 * point to alive past every scavenge until the next full collection. Every read was promoted, and a
 * record read on MariaDB ran at 0.84 of the bare server with twice its p99 (docs/performance.md,
 * "Figures of 2026-11-26, the sixth session"). Rows wanted as arrays are read as objects and taken in
 * select-list order: every array read names its columns apart (record-plan.ts aliases each), which the
 * first row confirms. The database layer sends every MySQL statement of its own through here.
 */
export function executeStatement(
  target: MySqlConnection | MySqlPool,
  sql: string,
  values: unknown[],
  rowsAsArray: boolean,
  callback: MySqlCallback,
): void {
  if (!rowsAsArray) return target.execute(sql, values, callback);
  target.execute(sql, values, (error, rows, fields) => {
    if (error) return callback(error, rows);
    const objects = rows as Array<Record<string, unknown>>;
    const arrays = new Array<unknown[]>(objects.length);
    for (let i = 0; i < objects.length; i++) arrays[i] = Object.values(objects[i]);
    if (arrays.length && arrays[0].length !== fields?.length)
      return callback(new Error(`An array read named two of its columns alike: ${sql}`), undefined);
    callback(null, arrays);
  });
}

/**
 * Starts, commits or rolls back the transaction of a query runner straight on its mysql2 connection,
 * and keeps the runner's flag in step, so that TypeORM's own reads in domain rules (and
 * `transactionConnection`) see the transaction. TypeORM's startTransaction and commitTransaction run
 * the same statements through its query wrapper and event broadcasts, a tenth of a create's CPU.
 * (The service uses no subscribers and no nested transactions.)
 */
export function controlTransaction(
  runner: { isTransactionActive: boolean },
  connection: MySqlConnection,
  statement: 'START TRANSACTION' | 'COMMIT' | 'ROLLBACK',
): Promise<void> {
  return new Promise<void>((resolve, reject) =>
    connection.query(statement, (error) => {
      if (error) return reject(new QueryFailedError(statement, [], error));
      // A failed COMMIT or ROLLBACK leaves the flag set: the caller rolls back, and then releases.
      runner.isTransactionActive = statement === 'START TRANSACTION';
      resolve();
    }),
  );
}
