import { setImmediate } from 'node:timers/promises';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import type { TransactionScope, TransactionWork } from '../driver.js';
import { workThenSteps, type TransactionSteps } from '../transaction-steps.js';

/**
 * At most this many transactions share one SQLite COMMIT, and none joins a group older than GROUP_MS:
 * reads from outside wait for the COMMIT, so a group is kept short.
 */
const GROUP_LIMIT = 32;
const GROUP_MS = 3;

/** SQLite's query runner, whose transaction flag the group keeps in step itself. */
type SqliteRunner = Omit<QueryRunner, 'isTransactionActive'> & { isTransactionActive: boolean };

/** What the group needs of the SQLite driver: its one connection's statements. */
export interface SqliteStatements {
  /** Runs a statement of no parameters (BEGIN, SAVEPOINT, COMMIT, …). */
  exec(sql: string): void;
  /** Whether the connection is inside a transaction (SQLite may roll one back by itself). */
  inTransaction(): boolean;
}

/** A SQLite write transaction waiting for its group. */
interface SqliteUnit {
  work: TransactionWork<unknown>;
  scope: TransactionScope | undefined;
  requestId: string | undefined;
  resolve: (result: unknown) => void;
  reject: (error: unknown) => void;
}

/** A group member that failed and was answered. */
const FAILED = Symbol('failed');

/**
 * SQLite has one connection, and TypeORM would nest concurrent transactions on it as savepoints of
 * each other, so write transactions take turns here: the write queue (lone writes and groups in
 * arrival order) and group commit (docs/architecture.md §7, "Group commit").
 */
export class GroupCommit {
  private queue: Promise<unknown> = Promise.resolve();
  /**
   * The transaction open on the one connection, and the entity manager of the group member running in
   * it. A read not given that manager comes from elsewhere: it waits for the COMMIT, so that no request
   * reads another's uncommitted write (docs/architecture.md §7).
   */
  private open: { manager: EntityManager | null; ended: Promise<void> } | null = null;
  /** SQLite's one query runner, with its entity manager: what a transaction's work is given. */
  private runner: SqliteRunner | undefined;
  /** Write transactions waiting for their group. */
  private readonly waiting: SqliteUnit[] = [];
  /** A group is queued and has not begun, so a new transaction only joins `waiting`. */
  private groupQueued = false;
  /** How long a group takes new members (GROUP_MS; a test may widen it). */
  windowMs = GROUP_MS;

  constructor(
    private readonly dataSource: DataSource,
    private readonly connection: SqliteStatements,
    private readonly steps: TransactionSteps,
  ) {}

  /** Whether a read given `manager` must wait for the open transaction's end (it is not the member's). */
  readsWait(manager: EntityManager | undefined): boolean {
    return this.open !== null && manager !== this.open.manager;
  }

  /** A read from outside the open transaction, run once no transaction is open (it reads only committed rows). */
  async afterOpenTransaction<T>(manager: EntityManager | undefined, read: () => T): Promise<T> {
    while (this.open && manager !== this.open.manager) await this.open.ended;
    return read();
  }

  /** Runs `work` when the writes and groups queued before it are done; one failing does not stop the next. */
  afterQueuedWrites<T>(work: () => T | Promise<T>): Promise<T> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** A write transaction, answered once its group has committed (or once it failed alone). */
  transaction<T>(work: TransactionWork<T>, scope: TransactionScope | undefined, requestId: string | undefined): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ work, scope, requestId, resolve: resolve as (result: unknown) => void, reject });
      if (!this.groupQueued) this.queueGroup();
    });
  }

  /** Queues a group after the writes already queued, so lone writes are not starved by a stream of transactions. */
  private queueGroup(): void {
    this.groupQueued = true;
    void this.afterQueuedWrites(async () => {
      // One turn of the event loop first: the requests whose data arrived meanwhile reach their
      // transactions and join this group, so that one COMMIT serves them all.
      await setImmediate();
      this.groupQueued = false;
      return this.group();
    });
  }

  /**
   * The write transactions waiting for their turn run one after the other inside one BEGIN … COMMIT,
   * each in a SAVEPOINT of its own, so one COMMIT (and its fsync) serves them all. A transaction that
   * fails, or whose deadline passed, rolls back to its savepoint and is answered at once, leaving the
   * others' work as it was; the others are answered after the COMMIT, so no answer reports a write that
   * is not yet durable. Each is given an entity manager of its own (`member`), so a read from elsewhere
   * still waits for the COMMIT and never sees an uncommitted row. Transactions arriving while a group
   * runs join it, up to GROUP_LIMIT or GROUP_MS. As on MySQL, once a request's deadline has passed its
   * work does not commit: it rolls back and the request is answered 503.
   */
  private async group(): Promise<void> {
    if (!this.waiting.length) return;
    const runner = (this.runner ??= this.dataSource.createQueryRunner() as SqliteRunner);
    const done: Array<{ unit: SqliteUnit; result: unknown; manager: EntityManager }> = [];
    let ended!: () => void;
    const began = Date.now();
    try {
      this.connection.exec('BEGIN');
    } catch (error) {
      // No transaction could begin (the file locked by another process past busy_timeout): every waiting
      // one fails with that error, rather than waiting for a turn that nothing would give it.
      for (const unit of this.waiting.splice(0)) unit.reject(error);
      return;
    }
    runner.isTransactionActive = true;
    this.open = { manager: null, ended: new Promise<void>((resolve) => (ended = resolve)) };
    try {
      while (this.waiting.length && done.length < GROUP_LIMIT && Date.now() - began < this.windowMs) {
        const unit = this.waiting.shift()!;
        const manager = this.dataSource.createEntityManager(runner);
        const result = await this.member(unit, manager);
        if (result !== FAILED) done.push({ unit, result, manager });
        // A failure SQLite answers by rolling back the whole transaction (a full disk, an I/O error)
        // took the group's earlier work with it: those fail too, with the same error.
        if (!this.connection.inTransaction()) throw new Error("SQLite rolled the group's transaction back");
      }
      this.connection.exec('COMMIT');
    } catch (error) {
      if (this.connection.inTransaction()) this.connection.exec('ROLLBACK');
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
      this.steps.committed(manager);
      unit.resolve(result);
    }
  }

  /** One transaction of a group, in its savepoint: its result, or FAILED once it was rolled back and answered. */
  private async member(unit: SqliteUnit, manager: EntityManager): Promise<unknown> {
    let end: (() => void) | undefined;
    try {
      end = unit.scope?.begin(() => undefined);
    } catch (error) {
      unit.reject(error);
      return FAILED;
    }
    // A manager of its own (made by the group): the reads given it are the member's, any other waits for the COMMIT.
    this.open!.manager = manager;
    this.connection.exec('SAVEPOINT group_member');
    try {
      const result = await workThenSteps(unit.work, manager, unit.scope, unit.requestId);
      unit.scope?.enterCommit();
      this.connection.exec('RELEASE group_member');
      return result;
    } catch (error) {
      if (this.connection.inTransaction()) {
        this.connection.exec('ROLLBACK TO group_member');
        this.connection.exec('RELEASE group_member');
      }
      unit.reject(error);
      return FAILED;
    } finally {
      end?.();
    }
  }
}
