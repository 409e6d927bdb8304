import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { DataSource } from 'typeorm';
import { Database } from './database.js';
import { isDeadlock, isTransientConflict } from './database-errors.js';
import { WriteScope } from './write-scope.js';

const deadlock = Object.assign(new Error('Deadlock found when trying to get lock; try restarting transaction'), {
  errno: 1213,
  code: 'ER_LOCK_DEADLOCK',
});
const lockWait = Object.assign(new Error('Lock wait timeout exceeded; try restarting transaction'), {
  errno: 1205,
  code: 'ER_LOCK_WAIT_TIMEOUT',
});

/** A MySQL data source whose transactions fail with the given errors, then succeed. */
function mySqlFailing(errors: unknown[], conflictBudgetMs = 1) {
  let calls = 0;
  const statements: string[] = [];
  // Transactions are started, committed and rolled back on the connection itself (src/persistence/mysql/connections.ts).
  const connection = {
    threadId: 7,
    query: (sql: string, callback: (error: Error | null) => void) => {
      if (sql === 'START TRANSACTION') calls++;
      else statements.push(sql);
      setImmediate(() => callback(null));
    },
    // Closing a connection that was sent a KILL (it leaves the pool) is recorded among the statements.
    destroy: () => statements.push('(connection closed)'),
  };
  const dataSource = {
    options: { type: 'mysql' },
    driver: {},
    createQueryRunner: () => ({
      isTransactionActive: false,
      manager: {},
      connect: async () => connection,
      query: async (sql: string) => statements.push(sql),
      release: async () => undefined,
    }),
  } as unknown as DataSource;
  const db = new Database(dataSource);
  // REQUEST_TIMEOUT_MS, which is also how long conflicts are retried past the first eight attempts.
  db.readTimeoutMs = conflictBudgetMs;
  const transaction = <T>(work: () => Promise<T>, scope?: WriteScope) =>
    db.transaction(async () => {
      if (errors.length) throw errors.shift();
      return work();
    }, scope);
  return { transaction, calls: () => calls, statements };
}

describe('Database.transaction on MySQL', () => {
  it('runs a transaction aborted by a deadlock or a lock wait timeout again, read-committed', async () => {
    const { transaction, calls, statements } = mySqlFailing([deadlock, lockWait, deadlock]);
    assert.equal(await transaction(async () => 'done'), 'done');
    assert.equal(calls(), 4);
    // The connection is set to read committed once, not per transaction.
    assert.deepEqual(statements, ['SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED', 'ROLLBACK', 'ROLLBACK', 'ROLLBACK', 'COMMIT']);
  });

  it('keeps running a transaction that loses conflicts past eight attempts while its time budget lasts (Galera turns)', async () => {
    const contended = mySqlFailing(
      Array.from({ length: 11 }, () => deadlock),
      60_000,
    );
    assert.equal(await contended.transaction(async () => 'done'), 'done');
    assert.equal(contended.calls(), 12);
  });

  it('gives up after eight attempts once its time budget is spent, and never retries other errors', async () => {
    const stuck = mySqlFailing(Array.from({ length: 9 }, () => deadlock));
    await assert.rejects(
      stuck.transaction(async () => 'never'),
      (error) => isDeadlock(error),
    );
    assert.equal(stuck.calls(), 8);
    const duplicate = mySqlFailing([Object.assign(new Error('Duplicate entry'), { errno: 1062 })]);
    await assert.rejects(
      duplicate.transaction(async () => 'never'),
      /Duplicate entry/,
    );
    assert.equal(duplicate.calls(), 1);
    assert.equal(isTransientConflict(lockWait), true);
  });

  it('starts nothing once the deadline passed, and does not retry past it', async () => {
    const scope = new WriteScope();
    scope.expire();
    const late = mySqlFailing([]);
    await assert.rejects(
      late.transaction(async () => 'never', scope),
      /not answered in time/,
    );
    assert.equal(late.calls(), 0);
    const expiring = new WriteScope();
    const conflicted = mySqlFailing([]);
    await assert.rejects(
      conflicted.transaction(async () => {
        expiring.expire();
        throw deadlock;
      }, expiring),
      (error) => isDeadlock(error),
    );
    assert.equal(conflicted.calls(), 1);
  });

  it('does not COMMIT work whose deadline passed while it ran: it rolls back, then closes the interrupted connection', async () => {
    const scope = new WriteScope();
    const { transaction, statements } = mySqlFailing([]);
    await assert.rejects(
      transaction(async () => {
        assert.equal(scope.expire(), true); // work in flight answers for itself
        return 'never';
      }, scope),
      /not answered in time/,
    );
    assert.deepEqual(statements.slice(-2), ['ROLLBACK', '(connection closed)']);
  });
});

describe('Database.transaction on SQLite: group commit', () => {
  /** A real in-memory SQLite database, with the COMMITs its connection runs counted. */
  /** `file`: a database file in WAL mode, as the service runs one; else an in-memory database. */
  async function sqlite(file?: string) {
    const { DataSource: TypeOrmDataSource } = await import('typeorm');
    const dataSource = new TypeOrmDataSource({ type: 'better-sqlite3', database: file ?? ':memory:', enableWAL: file !== undefined });
    await dataSource.initialize();
    const connection = (
      dataSource.driver as unknown as {
        databaseConnection: { prepare(sql: string): { run(): unknown }; pragma(sql: string, options: { simple: true }): unknown };
      }
    ).databaseConnection;
    connection.prepare('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)').run();
    let commits = 0;
    /** The connection's `synchronous` level at each COMMIT (2 = FULL, 1 = NORMAL: no fsync in WAL mode). */
    const syncAtCommits: unknown[] = [];
    const prepare = connection.prepare.bind(connection);
    connection.prepare = (sql: string) => {
      const statement = prepare(sql);
      if (sql !== 'COMMIT') return statement;
      const run = statement.run.bind(statement);
      statement.run = () => {
        commits++;
        syncAtCommits.push(connection.pragma('synchronous', { simple: true }));
        return run();
      };
      return statement;
    };
    const db = new Database(dataSource);
    const insert = (name: string) =>
      db.transaction(async (tx) => {
        await db.query('INSERT INTO t (name) VALUES (?)', [name], tx);
        return name;
      });
    const names = async () => (await db.query<{ name: string }>('SELECT name FROM t ORDER BY id')).map((row) => row.name);
    const sync = () => connection.pragma('synchronous', { simple: true });
    const close = async () => {
      db.onApplicationShutdown();
      await dataSource.destroy();
    };
    return { db, insert, names, commits: () => commits, syncAtCommits, sync, close };
  }

  it('commits concurrent transactions together; one that fails rolls back alone and is answered with its error', async () => {
    const { db, insert, names, commits, close } = await sqlite();
    // A slow moment of the machine must not split the group this test expects.
    db.groupWindowMs = 10_000;
    try {
      const outcomes = await Promise.allSettled([
        insert('a'),
        insert('b'),
        // Its second statement breaks the unique name: its first must go too, the others' must stay.
        db.transaction(async (tx) => {
          await db.query('INSERT INTO t (name) VALUES (?)', ['c'], tx);
          await db.query('INSERT INTO t (name) VALUES (?)', ['a'], tx);
        }),
        insert('d'),
      ]);
      assert.deepEqual(
        outcomes.map((outcome) => outcome.status),
        ['fulfilled', 'fulfilled', 'rejected', 'fulfilled'],
      );
      assert.match(String((outcomes[2] as PromiseRejectedResult).reason), /UNIQUE/);
      assert.deepEqual(await names(), ['a', 'b', 'd']);
      assert.equal(commits(), 1);
      // Alone, a transaction still commits at once.
      assert.equal(await insert('e'), 'e');
      assert.equal(commits(), 2);
    } finally {
      await close();
    }
  });

  it('never shows another request an uncommitted row: a read from outside waits for the group to end', async () => {
    const { db, insert, names, close } = await sqlite();
    try {
      // A member writes, waits, then fails: its row is rolled back. A read from another request's
      // context while it waits must not see the row (one connection sees its own uncommitted writes).
      const failing = db.transaction(async (tx) => {
        await db.query('INSERT INTO t (name) VALUES (?)', ['x'], tx);
        await new Promise((resolve) => setTimeout(resolve, 30));
        throw new Error('changed its mind');
      });
      const other = insert('y');
      const read = new Promise<string[]>((resolve) => setTimeout(() => resolve(names()), 10));
      await assert.rejects(failing, /changed its mind/);
      assert.equal(await other, 'y');
      assert.deepEqual(await read, []);
      assert.deepEqual(await names(), ['y']);
    } finally {
      await close();
    }
  });

  it('on a database file, a read from outside does not wait for the open group: it reads the last COMMIT on a connection of its own', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
    const { db, insert, names, close } = await sqlite(join(dir, 'db.sqlite'));
    try {
      await insert('committed');
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const open = db.transaction(async (tx) => {
        await db.query('INSERT INTO t (name) VALUES (?)', ['uncommitted'], tx);
        // The member's own read sees its row, on the writer's connection.
        assert.deepEqual(
          (await db.query<{ name: string }>('SELECT name FROM t ORDER BY id', [], tx)).map((row) => row.name),
          ['committed', 'uncommitted'],
        );
        await held;
      });
      await new Promise((resolve) => setTimeout(resolve, 10));
      // Answered while the group is still open, without its row.
      const read = await Promise.race([names(), new Promise((resolve) => setTimeout(() => resolve('waited for the COMMIT'), 2_000))]);
      assert.deepEqual(read, ['committed']);
      // A PRAGMA from outside still waits: it is the writer's connection's to answer.
      let pragmaAnswered = false;
      const pragma = db.query('PRAGMA user_version').then(() => (pragmaAnswered = true));
      await new Promise((resolve) => setTimeout(resolve, 10));
      assert.equal(pragmaAnswered, false);
      release();
      await open;
      await pragma;
      assert.deepEqual(await names(), ['committed', 'uncommitted']);
    } finally {
      await close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rolls back a member whose deadline passed before its turn, and commits the rest', async () => {
    const { db, insert, names, close } = await sqlite();
    try {
      const late = new WriteScope();
      late.expire();
      const outcomes = await Promise.allSettled([
        insert('p'),
        db.transaction(async (tx) => db.query('INSERT INTO t (name) VALUES (?)', ['q'], tx), late),
        insert('r'),
      ]);
      assert.deepEqual(
        outcomes.map((outcome) => outcome.status),
        ['fulfilled', 'rejected', 'fulfilled'],
      );
      assert.deepEqual(await names(), ['p', 'r']);
    } finally {
      await close();
    }
  });

  it('commits a transient write alone, after the open group, without syncing it; the connection keeps its level; a failing one leaves nothing', async () => {
    const { db, insert, names, syncAtCommits, sync, close } = await sqlite();
    try {
      assert.equal(sync(), 2);
      const group = db.transaction(async (tx) => {
        await db.query('INSERT INTO t (name) VALUES (?)', ['a'], tx);
        await new Promise((resolve) => setTimeout(resolve, 20));
      });
      const transient = db.transientWrite([
        ['INSERT INTO t (name) VALUES (?)', ['file']],
        ['DELETE FROM t WHERE name = ?', ['nothing']],
      ]);
      await Promise.all([group, transient]);
      // The group's commit is synced, the transient write's is not, and it did not join the group.
      assert.deepEqual(syncAtCommits, [2, 1]);
      assert.equal(sync(), 2);
      assert.equal(await insert('b'), 'b');
      assert.deepEqual(syncAtCommits, [2, 1, 2]);
      // Its second statement breaks the unique name: the first goes too, and the level is restored.
      await assert.rejects(
        db.transientWrite([
          ['INSERT INTO t (name) VALUES (?)', ['z']],
          ['INSERT INTO t (name) VALUES (?)', ['a']],
        ]),
        /UNIQUE/,
      );
      assert.equal(sync(), 2);
      assert.deepEqual(await names(), ['a', 'file', 'b']);
    } finally {
      await close();
    }
  });
});
