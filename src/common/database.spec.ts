import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DataSource } from 'typeorm';
import { Database, isDeadlock } from './database.js';

const deadlock = Object.assign(new Error('Deadlock found when trying to get lock; try restarting transaction'), { errno: 1213, code: 'ER_LOCK_DEADLOCK' });

/** A MySQL data source whose transactions fail with the given errors, then succeed. */
function mySqlFailing(errors: unknown[]) {
  let calls = 0;
  const dataSource = {
    options: { type: 'mysql' },
    transaction: async (work: (manager: unknown) => Promise<unknown>) => {
      calls++;
      if (errors.length) throw errors.shift();
      return work({});
    },
  } as unknown as DataSource;
  return { db: new Database(dataSource), calls: () => calls };
}

describe('Database.transaction on MySQL', () => {
  it('runs a transaction InnoDB aborted to break a deadlock again', async () => {
    const { db, calls } = mySqlFailing([deadlock, deadlock]);
    assert.equal(await db.transaction(async () => 'done'), 'done');
    assert.equal(calls(), 3);
  });

  it('gives up after five attempts, and never retries other errors', async () => {
    const stuck = mySqlFailing([deadlock, deadlock, deadlock, deadlock, deadlock, deadlock]);
    await assert.rejects(stuck.db.transaction(async () => 'never'), (error) => isDeadlock(error));
    assert.equal(stuck.calls(), 5);
    const duplicate = mySqlFailing([Object.assign(new Error('Duplicate entry'), { errno: 1062 })]);
    await assert.rejects(duplicate.db.transaction(async () => 'never'), /Duplicate entry/);
    assert.equal(duplicate.calls(), 1);
  });
});
