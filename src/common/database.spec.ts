import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DataSource } from 'typeorm';
import { Database } from './database.js';
import { isDeadlock, isTransientConflict } from './database-errors.js';
import { WriteScope } from './write-scope.js';

const deadlock = Object.assign(new Error('Deadlock found when trying to get lock; try restarting transaction'), { errno: 1213, code: 'ER_LOCK_DEADLOCK' });
const lockWait = Object.assign(new Error('Lock wait timeout exceeded; try restarting transaction'), { errno: 1205, code: 'ER_LOCK_WAIT_TIMEOUT' });

/** A MySQL data source whose transactions fail with the given errors, then succeed. */
function mySqlFailing(errors: unknown[]) {
  let calls = 0;
  const statements: string[] = [];
  // Transactions are started, committed and rolled back on the connection itself (mysql-connections.ts).
  const connection = {
    threadId: 7,
    query: (sql: string, callback: (error: Error | null) => void) => {
      if (sql === 'START TRANSACTION') calls++;
      else statements.push(sql);
      setImmediate(() => callback(null));
    },
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
  const transaction = <T>(work: () => Promise<T>, scope?: WriteScope) => db.transaction(async () => {
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

  it('gives up after eight attempts, and never retries other errors', async () => {
    const stuck = mySqlFailing(Array.from({ length: 9 }, () => deadlock));
    await assert.rejects(stuck.transaction(async () => 'never'), (error) => isDeadlock(error));
    assert.equal(stuck.calls(), 8);
    const duplicate = mySqlFailing([Object.assign(new Error('Duplicate entry'), { errno: 1062 })]);
    await assert.rejects(duplicate.transaction(async () => 'never'), /Duplicate entry/);
    assert.equal(duplicate.calls(), 1);
    assert.equal(isTransientConflict(lockWait), true);
  });

  it('starts nothing once the deadline passed, and does not retry past it', async () => {
    const scope = new WriteScope();
    scope.expire();
    const late = mySqlFailing([]);
    await assert.rejects(late.transaction(async () => 'never', scope), /not answered in time/);
    assert.equal(late.calls(), 0);
    const expiring = new WriteScope();
    const conflicted = mySqlFailing([]);
    await assert.rejects(conflicted.transaction(async () => {
      expiring.expire();
      throw deadlock;
    }, expiring), (error) => isDeadlock(error));
    assert.equal(conflicted.calls(), 1);
  });

  it('does not COMMIT work whose deadline passed while it ran: it rolls back', async () => {
    const scope = new WriteScope();
    const { transaction, statements } = mySqlFailing([]);
    await assert.rejects(transaction(async () => {
      assert.equal(scope.expire(), true); // work in flight answers for itself
      return 'never';
    }, scope), /not answered in time/);
    assert.deepEqual(statements.slice(-1), ['ROLLBACK']);
  });
});
