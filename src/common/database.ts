import { setImmediate, setTimeout } from 'node:timers/promises';
import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource, type EntityManager, type QueryRunner } from 'typeorm';
import { isTransientConflict } from './database-errors.js';
import { RequestTimeoutError } from './http-exception.filter.js';
import { controlTransaction, executeOn, executeStatement, StatementKiller, transactionConnection, WRITE_ISOLATION, type MySqlConnection, type MySqlPool } from './mysql-connections.js';
import type { AnyClass } from './columns.js';
import type { SqlContext } from './record-definition.js';
import type { WriteScope } from './write-scope.js';

interface SqliteStatement {
  reader: boolean;
  all(...parameters: unknown[]): unknown[];
  run(...parameters: unknown[]): unknown;
  raw(toggle: boolean): SqliteStatement;
}

/** SQLite's query runner, whose transaction flag the database layer keeps in step itself. */
type SqliteRunner = Omit<QueryRunner, 'isTransactionActive'> & { isTransactionActive: boolean };

/** What the database layer uses of better-sqlite3's connection (TypeORM's driver holds the one). */
interface SqliteConnection {
  inTransaction: boolean;
  prepare(sql: string): SqliteStatement;
}

/**
 * How many times a MySQL transaction (or a lone statement) that InnoDB aborted to break a deadlock,
 * or that waited too long for a lock, is tried in all; the pauses between grow and are random, so
 * the colliding writers come back at different moments.
 */
const CONFLICT_ATTEMPTS = 8;
const conflictPause = (attempt: number) => Math.floor(Math.random() * Math.min(250, 4 * 2 ** attempt));

/**
 * The database as the record machinery uses it: raw reads with bound parameters, and write
 * transactions. SQLite has one connection and TypeORM nests concurrent transactions on it as
 * savepoints of each other, so there write transactions take turns; MySQL runs them in parallel.
 */
@Injectable()
export class Database implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly isMySql: boolean;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly statements = new Map<string, SqliteStatement>();
  private readonly arrayStatements = new Map<string, SqliteStatement>();
  /** MySQL connections already set to WRITE_ISOLATION. */
  private readonly isolated = new WeakSet<object>();
  /** A connection of its own for KILL QUERY, so that interrupting never waits for a pooled one. */
  private killer: StatementKiller | null = null;
  /**
   * SQLite: the transaction open on the one connection, and the entity manager of the group member
   * running in it. A read not given that manager comes from elsewhere: it waits for the COMMIT, so that
   * no request reads another's uncommitted write (docs/architecture.md §7).
   */
  private open: { manager: EntityManager | null; ended: Promise<void> } | null = null;
  /** The request id each transaction's work is done for, by its entity manager (the change log records it). */
  private readonly requestIds = new WeakMap<EntityManager, string>();
  /** What runs once a transaction has committed, by its entity manager (`afterCommit`); dropped on a rollback. */
  private readonly committedSteps = new WeakMap<EntityManager, Array<() => void>>();
  /** REQUEST_TIMEOUT_MS: a read outside a transaction with no request deadline known is bounded by it (MariaDB). */
  readTimeoutMs = 0;
  private mariaDb: boolean | undefined;

  constructor(readonly dataSource: DataSource) {
    this.isMySql = isMySqlFamily(dataSource);
    // Connections the pool opens from now on read committed rows from their first statement.
    if (this.isMySql && this.pool) {
      this.pool.on('connection', (connection) => {
        this.isolated.add(connection);
        connection.query(WRITE_ISOLATION, () => undefined);
      });
    }
  }

  private returning: Promise<boolean> | undefined;

  /**
   * Whether an INSERT can return values (RETURNING): SQLite since 3.35 and MariaDB since 10.5 can,
   * MySQL cannot. Asked of the server once, on the caller's transaction connection when it has one:
   * a transaction that waited for a pooled connection while holding its own could starve the pool.
   */
  supportsReturning(manager?: EntityManager): Promise<boolean> {
    if (!this.isMySql) return Promise.resolve(true);
    return (this.returning ??= this.query<{ v: string }>('SELECT VERSION() AS v', [], manager).then(([row]) => {
      const mariaDb = /^(\d+)\.(\d+).*MariaDB/i.exec(String(row?.v ?? ''));
      this.mariaDb = /MariaDB/i.test(String(row?.v ?? ''));
      return mariaDb !== null && (Number(mariaDb[1]) > 10 || (Number(mariaDb[1]) === 10 && Number(mariaDb[2]) >= 5));
    }).catch((error: unknown) => {
      // Asked again next time: the database may be back.
      this.returning = undefined;
      throw error;
    }));
  }

  /** MariaDB or MySQL: asked once at start (reads are bounded on MariaDB: `boundedRead`). */
  async onApplicationBootstrap(): Promise<void> {
    if (this.isMySql) await this.supportsReturning().catch(() => undefined);
  }

  private galera: Promise<boolean> | undefined;

  /** Whether the MySQL server is a node of a Galera cluster (`wsrep_on`); asked once (again after a failure). */
  private isGalera(): Promise<boolean> {
    if (!this.isMySql) return Promise.resolve(false);
    return (this.galera ??= this.query<{ Value: string }>("SHOW VARIABLES LIKE 'wsrep_on'").then(([row]) => String(row?.Value ?? '').toUpperCase() === 'ON').catch((error: unknown) => {
      this.galera = undefined;
      throw error;
    }));
  }

  onApplicationShutdown(): void {
    this.killer?.close();
    this.killer = null;
  }

  private get pool(): MySqlPool | undefined {
    return (this.dataSource.driver as unknown as { pool?: MySqlPool }).pool;
  }

  /** The MySQL pool's connections (open, in use) and the requests waiting for one; null on SQLite (metrics). */
  poolUse(): { limit: number; open: number; idle: number; waiting: number } | null {
    // mysql2's pool keeps these in fields without a public accessor.
    const pool = this.pool as unknown as { config?: { connectionLimit?: number }; _allConnections?: { length: number }; _freeConnections?: { length: number }; _connectionQueue?: { length: number } } | undefined;
    if (!pool?._allConnections) return null;
    return { limit: pool.config?.connectionLimit ?? 0, open: pool._allConnections.length, idle: pool._freeConnections?.length ?? 0, waiting: pool._connectionQueue?.length ?? 0 };
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
  query<T = Record<string, unknown>>(sql: string, parameters: unknown[] = [], manager?: EntityManager, deadline?: number): Promise<T[]> {
    if (this.isMySql) {
      const connection = transactionConnection(manager);
      if (connection) return executeOn<T>(connection, sql, parameters, false);
      if (manager) return manager.query(sql, parameters);
      return this.execute<T>(sql, parameters, false, deadline);
    }
    return this.sqlite<T>(sql, parameters, manager);
  }

  /**
   * A read outside any transaction that sees every write the database committed before it was sent, on
   * any node: on a Galera node it first waits until the node has applied what the cluster committed
   * (`wsrep_sync_wait` for this statement only). Elsewhere the same as `query`.
   */
  async causalRead<T = Record<string, unknown>>(sql: string, parameters: unknown[] = []): Promise<T[]> {
    return this.query<T>((await this.isGalera()) ? afterCausalityWait(sql) : sql, parameters);
  }

  /** A SQLite statement; a write outside a transaction takes its turn after the open ones. */
  private sqlite<T>(sql: string, parameters: unknown[], manager?: EntityManager, scope?: WriteScope): Promise<T[]> {
    const bound = sqliteParameters(parameters);
    const statement = this.statement(sql);
    if (statement.reader) {
      if (this.open && manager !== this.open.manager) return this.afterOpenTransaction(manager, () => statement.all(...bound) as T[]);
      return Promise.resolve(statement.all(...bound) as T[]);
    }
    if (manager) return Promise.resolve(statement.run(...bound) as never);
    return this.afterQueuedWrites(() => {
      // Its turn may come after the request's deadline: then it must not write.
      scope?.check();
      return statement.run(...bound) as never;
    });
  }

  /** SQLite: runs `work` when the writes and groups queued before it are done; one failing does not stop the next. */
  private afterQueuedWrites<T>(work: () => T | Promise<T>): Promise<T> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * A read whose rows come as arrays of the select list's values, in its order: the hot read path
   * takes its columns by position, and better-sqlite3 builds an array per row for about half the cost
   * of an object with a property per column (mysql2 builds objects here: `executeStatement`).
   */
  async queryArrays(sql: string, parameters: unknown[] = [], manager?: EntityManager, deadline?: number): Promise<unknown[][]> {
    if (this.isMySql) {
      const connection = transactionConnection(manager);
      if (connection) return executeOn<unknown[]>(connection, sql, parameters, true);
      if (manager) return (await manager.query<Array<Record<string, unknown>>>(sql, parameters)).map((row) => Object.values(row));
      return this.execute<unknown[]>(sql, parameters, true, deadline);
    }
    const statement = this.statement(sql, true);
    const bound = sqliteParameters(parameters);
    if (this.open && manager !== this.open.manager) return this.afterOpenTransaction(manager, () => statement.all(...bound) as unknown[][]);
    return statement.all(...bound) as unknown[][];
  }

  /** A SQLite read from outside the open transaction, run once no transaction is open (it reads only committed rows). */
  private async afterOpenTransaction<T>(manager: EntityManager | undefined, read: () => T): Promise<T> {
    while (this.open && manager !== this.open.manager) await this.open.ended;
    return read();
  }

  /** The request id the transaction of `manager` works for, given to `transaction` (the change log records it). */
  requestIdOf(manager: EntityManager): string | undefined {
    return this.requestIds.get(manager);
  }

  /**
   * Runs `step` once the transaction of `manager` has committed, and never when it rolls back (a
   * conflict retried runs its work again, which asks again): counting what happened, not what was tried
   * (the metrics of docs/operations.md). A manager outside any transaction: at once.
   */
  afterCommit(manager: EntityManager, step: () => void): void {
    if (!manager.queryRunner?.isTransactionActive) return step();
    const steps = this.committedSteps.get(manager);
    if (steps) steps.push(step);
    else this.committedSteps.set(manager, [step]);
  }

  /** The steps waiting for the commit of `manager`'s transaction, run once (errors are the steps' own). */
  private committed(manager: EntityManager): void {
    const steps = this.committedSteps.get(manager);
    if (!steps) return;
    this.committedSteps.delete(manager);
    for (const step of steps) step();
  }

  /**
   * A MySQL statement outside a transaction, prepared once per connection (mysql2 keeps them): the
   * server parses and plans it once, not on every request, which took 40% off its CPU for a record
   * read. (Inside a transaction statements go to its own connection: mysql-connections.ts.)
   */
  private execute<T>(sql: string, parameters: unknown[], rowsAsArray: boolean, deadline?: number): Promise<T[]> {
    const pool = this.pool!;
    const bounded = this.mariaDb === true && this.readTimeoutMs > 0 && /^\s*SELECT\b/i.test(sql);
    const once = bounded
      ? this.boundedRead<T>(pool, sql, parameters, rowsAsArray, deadline ?? Date.now() + this.readTimeoutMs)
      : () => new Promise<T[]>((resolve, reject) => executeStatement(pool, sql, parameters, rowsAsArray, (error, rows) => (error ? reject(error) : resolve(rows as T[]))));
    return once().catch((error: unknown) => {
      if (isTransientConflict(error)) return this.retryConflicts(once, undefined, 2);
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
    return () => new Promise<T[]>((resolve, reject) => pool.getConnection((failed, connection) => {
      if (failed) return reject(failed);
      const left = deadline - Date.now();
      if (left <= 0) {
        connection.release();
        return reject(new RequestTimeoutError());
      }
      executeStatement(connection, `SET STATEMENT max_statement_time=${(Math.ceil(left / 100) / 10).toFixed(1)} FOR ${sql}`, parameters, rowsAsArray, (error, rows) => {
        connection.release();
        return error ? reject(error) : resolve(rows as T[]);
      });
    }));
  }

  /**
   * A write of one statement outside a transaction, on behalf of a request: on MySQL it runs on a
   * connection of its own (what the pool does for any statement) so that the answer deadline can
   * interrupt it, and is retried like a transaction when InnoDB aborts it for a lock conflict.
   */
  async write<T = Record<string, unknown>>(sql: string, parameters: unknown[], scope: WriteScope | undefined): Promise<T[]> {
    if (!scope) return this.query<T>(sql, parameters);
    if (!this.isMySql) return this.sqlite<T>(sql, parameters, undefined, scope);
    const once = () => new Promise<T[]>((resolve, reject) => {
      this.pool!.getConnection((failed, connection) => {
        if (failed) return reject(failed);
        let end: () => void;
        try {
          end = scope.begin(() => this.interrupt(connection.threadId));
        } catch (error) {
          connection.release();
          return reject(error instanceof Error ? error : new Error(String(error)));
        }
        executeStatement(connection, sql, parameters, false, (error, rows) => {
          end();
          connection.release();
          return error ? reject(error) : resolve(rows as T[]);
        });
      });
    });
    return this.retryConflicts(once, scope);
  }

  /**
   * Writes whose loss in a power failure costs nothing but a retry (a download's file, kept for
   * minutes), as one transaction of their own. On SQLite it commits without waiting for the disk
   * (`synchronous = NORMAL` for this one commit), so the request thread does not stall in an fsync for
   * a file (docs/architecture.md §7): in WAL mode the database stays consistent whatever is lost, and
   * the next ordinary commit's sync makes these pages durable too. On MySQL the server syncs in its own
   * process: the statements go to the pool as they are.
   */
  async transientWrite(statements: ReadonlyArray<readonly [sql: string, parameters: unknown[]]>): Promise<void> {
    if (this.isMySql) {
      for (const [sql, parameters] of statements) await this.query(sql, parameters);
      return;
    }
    await this.afterQueuedWrites(() => {
      const durable = (this.durableSync ??= Number((this.statement('PRAGMA synchronous').all()[0] as { synchronous: number }).synchronous));
      this.statement('PRAGMA synchronous = NORMAL').run();
      try {
        this.statement('BEGIN').run();
        for (const [sql, parameters] of statements) this.statement(sql).run(...sqliteParameters(parameters));
        this.statement('COMMIT').run();
      } catch (error) {
        if (this.sqliteConnection.inTransaction) this.statement('ROLLBACK').run();
        throw error;
      } finally {
        this.statement(`PRAGMA synchronous = ${durable}`).run();
      }
    });
  }

  /** SQLite: the connection's own `synchronous` level, which every commit but a transient write keeps. */
  private durableSync: number | undefined;

  /**
   * SQLite statements are prepared once per SQL text and row shape (bounded caches: texts vary with
   * list lengths).
   */
  private statement(sql: string, asArrays = false): SqliteStatement {
    const cache = asArrays ? this.arrayStatements : this.statements;
    let statement = cache.get(sql);
    if (!statement) {
      if (cache.size >= 500) cache.clear();
      statement = this.sqliteConnection.prepare(sql);
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
  transaction<T>(work: (manager: EntityManager) => Promise<T>, scope?: WriteScope, requestId = scope?.requestId): Promise<T> {
    if (this.isMySql) return this.retryConflicts(() => this.mySqlTransaction(work, scope, false, requestId), scope);
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ work, scope, requestId, resolve: resolve as (result: unknown) => void, reject });
      if (!this.groupQueued) this.queueGroup();
    });
  }

  /**
   * A write transaction whose reads see every write the database committed before it began, on any
   * node: on a Galera node each attempt first waits until the node has applied what the cluster
   * committed (docs/billing.md, "Exactly once"), which a read inside a transaction never waits for.
   * On one server (and SQLite) the same as `transaction`.
   */
  causalTransaction<T>(work: (manager: EntityManager) => Promise<T>, scope?: WriteScope, requestId = scope?.requestId): Promise<T> {
    if (this.isMySql) return this.retryConflicts(() => this.mySqlTransaction(work, scope, true, requestId), scope);
    return this.transaction(work, scope, requestId);
  }

  /** SQLite's one query runner, with its entity manager: what a transaction's work is given. */
  private sqliteRunner: SqliteRunner | undefined;
  /** SQLite: write transactions waiting for their group (`sqliteGroup`). */
  private readonly waiting: SqliteUnit[] = [];
  /** SQLite: a group is queued and has not begun, so a new transaction only joins `waiting`. */
  private groupQueued = false;
  /** SQLite: how long a group takes new members (GROUP_MS; a test may widen it). */
  groupWindowMs = GROUP_MS;

  /** Queues a group after the writes already queued, so lone writes are not starved by a stream of transactions. */
  private queueGroup(): void {
    this.groupQueued = true;
    void this.afterQueuedWrites(async () => {
      // One turn of the event loop first: the requests whose data arrived meanwhile reach their
      // transactions and join this group, so that one COMMIT serves them all.
      await setImmediate();
      this.groupQueued = false;
      return this.sqliteGroup();
    });
  }

  /**
   * SQLite group commit: the write transactions waiting for their turn run one after the other inside
   * one BEGIN … COMMIT, each in a SAVEPOINT of its own, so one COMMIT (and its fsync) serves them all
   * (docs/architecture.md §7, "Group commit"). A transaction that fails, or whose deadline passed, rolls
   * back to its savepoint and is answered at once, leaving the others' work as it was; the others are
   * answered after the COMMIT, so no answer reports a write that is not yet durable. Each is given an
   * entity manager of its own (`groupMember`), so a read from elsewhere still waits for the COMMIT and
   * never sees an uncommitted row. Transactions arriving while a group runs join it, up to GROUP_LIMIT or GROUP_MS.
   * As on MySQL, once a request's deadline has passed its work does not commit: it rolls back and the
   * request is answered 503.
   */
  private async sqliteGroup(): Promise<void> {
    if (!this.waiting.length) return;
    const runner = (this.sqliteRunner ??= this.dataSource.createQueryRunner() as SqliteRunner);
    const done: Array<{ unit: SqliteUnit; result: unknown; manager: EntityManager }> = [];
    let ended!: () => void;
    const began = Date.now();
    try {
      this.statement('BEGIN').run();
    } catch (error) {
      // No transaction could begin (the file locked by another process past busy_timeout): every waiting
      // one fails with that error, rather than waiting for a turn that nothing would give it.
      for (const unit of this.waiting.splice(0)) unit.reject(error);
      return;
    }
    runner.isTransactionActive = true;
    this.open = { manager: null, ended: new Promise<void>((resolve) => (ended = resolve)) };
    try {
      while (this.waiting.length && done.length < GROUP_LIMIT && Date.now() - began < this.groupWindowMs) {
        const unit = this.waiting.shift()!;
        const manager = this.dataSource.createEntityManager(runner);
        const result = await this.groupMember(unit, manager);
        if (result !== FAILED) done.push({ unit, result, manager });
        // A failure SQLite answers by rolling back the whole transaction (a full disk, an I/O error)
        // took the group's earlier work with it: those fail too, with the same error.
        if (!this.sqliteConnection.inTransaction) throw new Error("SQLite rolled the group's transaction back");
      }
      this.statement('COMMIT').run();
    } catch (error) {
      if (this.sqliteConnection.inTransaction) this.statement('ROLLBACK').run();
      for (const { unit } of done) unit.reject(error);
      done.length = 0;
    } finally {
      runner.isTransactionActive = false;
      this.open = null;
      ended();
      // Transactions that arrived after the group's limits take the next turn.
      if (this.waiting.length && !this.groupQueued) this.queueGroup();
    }
    for (const { unit, result, manager } of done) {
      if (unit.scope) unit.scope.commits++;
      this.committed(manager);
      unit.resolve(result);
    }
  }

  /** One transaction of a group, in its savepoint: its result, or FAILED once it was rolled back and answered. */
  private async groupMember(unit: SqliteUnit, manager: EntityManager): Promise<unknown> {
    let end: (() => void) | undefined;
    try {
      end = unit.scope?.begin(() => undefined);
    } catch (error) {
      unit.reject(error);
      return FAILED;
    }
    // A manager of its own (made by the group): the reads given it are the member's, any other waits for the COMMIT.
    if (unit.requestId !== undefined) this.requestIds.set(manager, unit.requestId);
    this.open!.manager = manager;
    this.statement('SAVEPOINT group_member').run();
    try {
      const result = await this.finish(unit.work, manager, unit.scope);
      unit.scope?.enterCommit();
      this.statement('RELEASE group_member').run();
      return result;
    } catch (error) {
      if (this.sqliteConnection.inTransaction) {
        this.statement('ROLLBACK TO group_member').run();
        this.statement('RELEASE group_member').run();
      }
      unit.reject(error);
      return FAILED;
    } finally {
      end?.();
    }
  }

  /** The SQLite database's file; null for MySQL and for an in-memory database. */
  sqliteFile(): string | null {
    const { options } = this.dataSource;
    if (options.type !== 'better-sqlite3' || typeof options.database !== 'string' || options.database === ':memory:') return null;
    return options.database;
  }

  private get sqliteConnection(): SqliteConnection {
    return (this.dataSource.driver as unknown as { databaseConnection: SqliteConnection }).databaseConnection;
  }

  /**
   * Runs `once` again while it fails for a lock conflict (deadlock, lock wait timeout), a bounded
   * number of times after growing random pauses, and never past the request's deadline.
   */
  private async retryConflicts<T>(once: () => Promise<T>, scope: WriteScope | undefined, firstAttempt = 1): Promise<T> {
    for (let attempt = firstAttempt; ; attempt++) {
      try {
        return await once();
      } catch (error) {
        if (attempt >= CONFLICT_ATTEMPTS || !isTransientConflict(error) || scope?.expired) throw error;
        await setTimeout(conflictPause(attempt));
      }
    }
  }

  /** The work, then the request's steps before COMMIT (its callers check the deadline before they commit). */
  private async finish<T>(work: (manager: EntityManager) => Promise<T>, manager: EntityManager, scope: WriteScope | undefined): Promise<T> {
    const result = await work(manager);
    if (!scope) return result;
    for (const step of scope.beforeCommit) await step(manager, result);
    return result;
  }

  /** One MySQL transaction on a connection of its own, which the request's deadline may interrupt. */
  private async mySqlTransaction<T>(work: (manager: EntityManager) => Promise<T>, scope: WriteScope | undefined, causal: boolean, requestId: string | undefined): Promise<T> {
    scope?.check();
    const galera = causal && (await this.isGalera());
    const runner: QueryRunner = this.dataSource.createQueryRunner('master');
    if (requestId !== undefined) this.requestIds.set(runner.manager, requestId);
    let end: (() => void) | undefined;
    try {
      const connection = (await runner.connect()) as MySqlConnection;
      end = scope?.begin(() => this.interrupt(connection.threadId));
      if (!this.isolated.has(connection)) {
        await runner.query(WRITE_ISOLATION);
        this.isolated.add(connection);
      }
      // The node catches up with the cluster (a causality wait, skipped inside a transaction), so
      // that the transaction's reads see what other nodes committed before it.
      if (galera) await executeOn(connection, afterCausalityWait('SELECT 1'), [], false);
      await controlTransaction(runner, connection, 'START TRANSACTION');
      try {
        const result = await this.finish(work, runner.manager, scope);
        const committed = scope?.enterCommit();
        try {
          await controlTransaction(runner, connection, 'COMMIT');
        } finally {
          committed?.();
        }
        if (scope) scope.commits++;
        this.committed(runner.manager);
        return result;
      } catch (error) {
        this.committedSteps.delete(runner.manager);
        if (runner.isTransactionActive) await controlTransaction(runner, connection, 'ROLLBACK').catch(() => undefined);
        throw error;
      }
    } finally {
      end?.();
      await runner.release();
    }
  }

  /** Stops the statement running on a MySQL connection (its transaction then rolls back). */
  private interrupt(threadId: number): void {
    if (!this.pool) return;
    (this.killer ??= new StatementKiller(this.dataSource.driver)).kill(threadId);
  }
}

/** A SQLite write transaction waiting for its group. */
interface SqliteUnit {
  work: (manager: EntityManager) => Promise<unknown>;
  scope: WriteScope | undefined;
  requestId: string | undefined;
  resolve: (result: unknown) => void;
  reject: (error: unknown) => void;
}

/** A group member that failed and was answered. */
const FAILED = Symbol('failed');
/**
 * At most this many transactions share one SQLite COMMIT, and none joins a group older than GROUP_MS:
 * reads from outside wait for the COMMIT, so a group is kept short.
 */
const GROUP_LIMIT = 32;
const GROUP_MS = 3;

/** A Galera node runs `sql` once it has applied what the cluster committed before (for this statement only). */
const afterCausalityWait = (sql: string): string => `SET STATEMENT wsrep_sync_wait=1 FOR ${sql}`;

/** better-sqlite3 binds no booleans: they go in as 0/1, as the columns store them. */
const sqliteParameters = (parameters: unknown[]): unknown[] => parameters.map((value) => (typeof value === 'boolean' ? Number(value) : value));

/** MySQL or MariaDB (TypeORM's two dialects over the same mysql2 driver). */
export const isMySqlFamily = (dataSource: DataSource): boolean => dataSource.options.type === 'mysql' || dataSource.options.type === 'mariadb';
