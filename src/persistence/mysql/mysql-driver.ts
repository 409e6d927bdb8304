import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { isTransientConflict } from '../database-errors.js';
import type { DatabaseDriver, PoolUse, RunResult, TransactionScope, TransactionWork } from '../driver.js';
import { RequestTimeoutError } from '../request-timeout.js';
import { TransactionSteps, workThenSteps } from '../transaction-steps.js';
import { retryConflicts } from './conflict-retry.js';
import {
  controlTransaction,
  executeOn,
  executeStatement,
  StatementKiller,
  transactionConnection,
  WRITE_ISOLATION,
  type MySqlConnection,
  type MySqlPool,
} from './connections.js';
import { afterCausalityWait, CATCH_UP, GaleraProbe } from './galera.js';

/**
 * MySQL and MariaDB (Galera included) over TypeORM's mysql2 pool: statements outside a transaction
 * go to the pool as prepared statements, write transactions run in parallel on connections of their
 * own, conflicts are retried (conflict-retry.ts), a request's deadline kills its running statement.
 * The only code that reads the pool's and TypeORM's private fields for MySQL (src/internals.spec.ts).
 */
/** The conflict budget before the service set its REQUEST_TIMEOUT_MS (its default). */
const DEFAULT_CONFLICT_BUDGET_MS = 10_000;

export class MySqlDriver implements DatabaseDriver {
  readonly dialect = 'mysql';
  readTimeoutMs = 0;
  /** How long work that keeps losing lock conflicts is run again (conflict-retry.ts): REQUEST_TIMEOUT_MS, once set. */
  private get conflictBudgetMs(): number {
    return this.readTimeoutMs > 0 ? this.readTimeoutMs : DEFAULT_CONFLICT_BUDGET_MS;
  }
  private readonly steps = new TransactionSteps();
  /** MySQL connections already set to WRITE_ISOLATION. */
  private readonly isolated = new WeakSet<object>();
  /** A connection of its own for KILL QUERY, so that interrupting never waits for a pooled one. */
  private killer: StatementKiller | null = null;
  private mariaDb: boolean | undefined;
  private returning: Promise<boolean> | undefined;
  private readonly galera = new GaleraProbe((sql) => this.query(sql, []));

  constructor(private readonly dataSource: DataSource) {
    // Connections the pool opens from now on read committed rows from their first statement.
    this.pool?.on('connection', (connection) => {
      this.isolated.add(connection);
      connection.query(WRITE_ISOLATION, () => undefined);
    });
  }

  /** TypeORM's MysqlDriver keeps its mysql2 pool as `pool` (no public accessor). */
  private get pool(): MySqlPool | undefined {
    return (this.dataSource.driver as unknown as { pool?: MySqlPool }).pool;
  }

  /** MariaDB or MySQL: asked once at start (reads are bounded on MariaDB: `boundedRead`). */
  async start(): Promise<void> {
    await this.supportsReturning().catch(() => undefined);
  }

  close(): void {
    this.killer?.close();
    this.killer = null;
  }

  /**
   * SQLite since 3.35 and MariaDB since 10.5 can return values from an INSERT, MySQL cannot. Asked of
   * the server once, on the caller's transaction connection when it has one: a transaction that waited
   * for a pooled connection while holding its own could starve the pool.
   */
  supportsReturning(manager?: EntityManager): Promise<boolean> {
    return (this.returning ??= this.query<{ v: string }>('SELECT VERSION() AS v', [], manager)
      .then(([row]) => {
        const mariaDb = /^(\d+)\.(\d+).*MariaDB/i.exec(String(row?.v ?? ''));
        this.mariaDb = /MariaDB/i.test(String(row?.v ?? ''));
        return mariaDb !== null && (Number(mariaDb[1]) > 10 || (Number(mariaDb[1]) === 10 && Number(mariaDb[2]) >= 5));
      })
      .catch((error: unknown) => {
        // Asked again next time: the database may be back.
        this.returning = undefined;
        throw error;
      }));
  }

  poolUse(): PoolUse | null {
    // mysql2's pool keeps these in fields without a public accessor.
    const pool = this.pool as unknown as
      | {
          config?: { connectionLimit?: number };
          _allConnections?: { length: number };
          _freeConnections?: { length: number };
          _connectionQueue?: { length: number };
        }
      | undefined;
    if (!pool?._allConnections) return null;
    return {
      limit: pool.config?.connectionLimit ?? 0,
      open: pool._allConnections.length,
      idle: pool._freeConnections?.length ?? 0,
      waiting: pool._connectionQueue?.length ?? 0,
    };
  }

  sqliteFile(): null {
    return null;
  }

  /** Inside a transaction (`manager`) statements go to its connection; outside, to the pool. */
  query<T>(sql: string, parameters: unknown[], manager?: EntityManager, deadline?: number): Promise<T[]> {
    const connection = transactionConnection(manager);
    if (connection) return executeOn<T>(connection, sql, parameters, false);
    if (manager) return manager.query(sql, parameters);
    return this.execute<T>(sql, parameters, false, deadline);
  }

  async queryArrays(sql: string, parameters: unknown[], manager?: EntityManager, deadline?: number): Promise<unknown[][]> {
    const connection = transactionConnection(manager);
    if (connection) return executeOn<unknown[]>(connection, sql, parameters, true);
    if (manager) return (await manager.query<Array<Record<string, unknown>>>(sql, parameters)).map((row) => Object.values(row));
    return this.execute<unknown[]>(sql, parameters, true, deadline);
  }

  /** mysql2 answers a write with a ResultSetHeader: `affectedRows`, `insertId`. */
  async run(sql: string, parameters: unknown[], manager?: EntityManager, scope?: TransactionScope): Promise<RunResult> {
    return outcomeOf(scope && !manager ? await this.write(sql, parameters, scope) : await this.query(sql, parameters, manager));
  }

  replicated(): Promise<boolean> {
    return this.galera.isGalera();
  }

  /** On a Galera node, a causality wait (galera.ts); a lone server has applied every commit already. */
  async catchUp(): Promise<void> {
    if (await this.galera.isGalera()) await this.query(CATCH_UP, []);
  }

  async causalRead<T>(sql: string, parameters: unknown[]): Promise<T[]> {
    return this.query<T>((await this.galera.isGalera()) ? afterCausalityWait(sql) : sql, parameters);
  }

  /**
   * A MySQL statement outside a transaction, prepared once per connection (mysql2 keeps them): the
   * server parses and plans it once, not on every request, which took 40% off its CPU for a record
   * read. (Inside a transaction statements go to its own connection: connections.ts.)
   */
  private execute<T>(sql: string, parameters: unknown[], rowsAsArray: boolean, deadline?: number): Promise<T[]> {
    const pool = this.pool!;
    const bounded = this.mariaDb === true && this.readTimeoutMs > 0 && /^\s*SELECT\b/i.test(sql);
    const once = bounded
      ? this.boundedRead<T>(pool, sql, parameters, rowsAsArray, deadline ?? Date.now() + this.readTimeoutMs)
      : () =>
          new Promise<T[]>((resolve, reject) =>
            executeStatement(pool, sql, parameters, rowsAsArray, (error, rows) => (error ? reject(error) : resolve(rows as T[]))),
          );
    return once().catch((error: unknown) => {
      if (isTransientConflict(error)) return retryConflicts(once, undefined, this.conflictBudgetMs, 2);
      throw error;
    });
  }

  /**
   * A SELECT outside a transaction, on MariaDB, stopped by the database at the request's deadline
   * (`SET STATEMENT max_statement_time=… FOR`, tenths of a second rounded up so that few texts are prepared,
   * counted from when it gets its connection, not from when it began waiting for one): a query still
   * running when its 503 is sent does not go on in the database (docs/api.md §1). One whose deadline
   * passed while it waited for a connection is not sent at all.
   */
  private boundedRead<T>(pool: MySqlPool, sql: string, parameters: unknown[], rowsAsArray: boolean, deadline: number): () => Promise<T[]> {
    return () =>
      new Promise<T[]>((resolve, reject) =>
        pool.getConnection((failed, connection) => {
          if (failed) return reject(failed);
          const left = deadline - Date.now();
          if (left <= 0) {
            connection.release();
            return reject(new RequestTimeoutError());
          }
          executeStatement(
            connection,
            `SET STATEMENT max_statement_time=${(Math.ceil(left / 100) / 10).toFixed(1)} FOR ${sql}`,
            parameters,
            rowsAsArray,
            (error, rows) => {
              connection.release();
              return error ? reject(error) : resolve(rows as T[]);
            },
          );
        }),
      );
  }

  /**
   * On a connection of its own (what the pool does for any statement) so that the answer deadline can
   * interrupt it, and retried like a transaction when InnoDB aborts it for a lock conflict.
   */
  write<T>(sql: string, parameters: unknown[], scope: TransactionScope): Promise<T[]> {
    const once = () =>
      new Promise<T[]>((resolve, reject) => {
        this.pool!.getConnection((failed, connection) => {
          if (failed) return reject(failed);
          const interruptible = this.interruptible(connection);
          let end: () => void;
          try {
            end = scope.begin(interruptible.interrupt);
          } catch (error) {
            connection.release();
            return reject(error instanceof Error ? error : new Error(String(error)));
          }
          executeStatement(connection, sql, parameters, false, (error, rows) => {
            end();
            interruptible.giveBack();
            return error ? reject(error) : resolve(rows as T[]);
          });
        });
      });
    return retryConflicts(once, scope, this.conflictBudgetMs);
  }

  /** The server syncs in its own process: the statements go to the pool as they are. */
  async transientWrite(statements: ReadonlyArray<readonly [sql: string, parameters: unknown[]]>): Promise<void> {
    for (const [sql, parameters] of statements) await this.query(sql, parameters);
  }

  /** In parallel, each on a connection of its own; one InnoDB aborted to break a deadlock runs again. */
  transaction<T>(
    work: TransactionWork<T>,
    scope: TransactionScope | undefined,
    requestId: string | undefined,
    causal: boolean,
  ): Promise<T> {
    return retryConflicts(() => this.once(work, scope, causal, requestId), scope, this.conflictBudgetMs);
  }

  afterCommit(manager: EntityManager, step: () => void): void {
    this.steps.afterCommit(manager, step);
  }

  /** One MySQL transaction on a connection of its own, which the request's deadline may interrupt. */
  private async once<T>(
    work: TransactionWork<T>,
    scope: TransactionScope | undefined,
    causal: boolean,
    requestId: string | undefined,
  ): Promise<T> {
    scope?.check();
    const galera = causal && (await this.galera.isGalera());
    const runner: QueryRunner = this.dataSource.createQueryRunner('master');
    let end: (() => void) | undefined;
    let interruptible: InterruptibleConnection | undefined;
    try {
      const connection = (await runner.connect()) as MySqlConnection;
      interruptible = this.interruptible(connection);
      end = scope?.begin(interruptible.interrupt);
      if (!this.isolated.has(connection)) {
        await runner.query(WRITE_ISOLATION);
        this.isolated.add(connection);
      }
      // The node catches up with the cluster (a causality wait, skipped inside a transaction), so
      // that the transaction's reads see what other nodes committed before it.
      if (galera) await executeOn(connection, CATCH_UP, [], false);
      await controlTransaction(runner, connection, 'START TRANSACTION');
      try {
        const result = await workThenSteps(work, runner.manager, scope, requestId);
        const committed = scope?.enterCommit();
        try {
          await controlTransaction(runner, connection, 'COMMIT');
        } finally {
          committed?.();
        }
        if (scope) scope.commits++;
        this.steps.committed(runner.manager);
        return result;
      } catch (error) {
        this.steps.rolledBack(runner.manager);
        if (runner.isTransactionActive) await controlTransaction(runner, connection, 'ROLLBACK').catch(() => undefined);
        throw error;
      }
    } finally {
      end?.();
      // After its ROLLBACK; TypeORM's release of a closed connection does nothing.
      interruptible?.closeIfInterrupted();
      await runner.release();
    }
  }

  /** Stops the statement running on a MySQL connection (its transaction then rolls back). */
  kill(threadId: number): void {
    if (!this.pool) return;
    (this.killer ??= new StatementKiller(this.dataSource.driver)).kill(threadId);
  }

  private interruptible(connection: MySqlConnection): InterruptibleConnection {
    return new InterruptibleConnection(connection, (threadId) => this.kill(threadId));
  }
}

/**
 * A pooled connection that a request's deadline may interrupt. Once it has been sent a KILL QUERY it
 * is closed rather than given back to the pool: the KILL travels on a connection of its own and may
 * reach the server after the statement it meant has ended, and the server then stops the next
 * statement of that thread, which would be another request's (docs/architecture.md §7).
 */
class InterruptibleConnection {
  private killed = false;

  constructor(
    private readonly connection: MySqlConnection,
    private readonly kill: (threadId: number) => void,
  ) {}

  readonly interrupt = (): void => {
    this.killed = true;
    this.kill(this.connection.threadId);
  };

  /** Closes the connection (which takes it out of the pool) when it was sent a KILL; says whether it did. */
  closeIfInterrupted(): boolean {
    if (this.killed) this.connection.destroy();
    return this.killed;
  }

  /** Back to the pool, unless it was interrupted. */
  giveBack(): void {
    if (!this.closeIfInterrupted()) this.connection.release();
  }
}

/** What mysql2 answers a write with (a ResultSetHeader), as the drivers' common `RunResult`. */
function outcomeOf(result: unknown): RunResult {
  const header = result as { affectedRows?: number; insertId?: number };
  return { affected: Number(header.affectedRows ?? 0), insertId: Number(header.insertId) };
}
