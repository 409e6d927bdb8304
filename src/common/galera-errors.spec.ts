import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable, isDeadlock } from './database-errors.js';

// The errors a MariaDB Galera node gives, as mysql2 reports them and TypeORM wraps them.
const driverError = (errno: number, code: string, message: string) => Object.assign(new Error(message), { errno, code, sqlState: '08S01' });
const wrapped = (error: Error) => new QueryFailedError('SELECT 1', [], error);

describe('Galera errors', () => {
  it('a node that is not ready (joining, or cut off from the majority) is the database being unavailable', () => {
    const notReady = driverError(1047, 'ER_UNKNOWN_COM_ERROR', 'WSREP has not yet prepared node for application use');
    assert.equal(isDatabaseUnavailable(notReady), true);
    assert.equal(isDatabaseUnavailable(wrapped(notReady)), true);
    assert.equal(isDeadlock(notReady), false);
  });

  it('a transaction that lost certification to another node\'s is a deadlock, to run again', () => {
    const conflict = driverError(1213, 'ER_LOCK_DEADLOCK', 'Deadlock found when trying to get lock; try restarting transaction');
    assert.equal(isDeadlock(wrapped(conflict)), true);
    assert.equal(isDatabaseUnavailable(conflict), false);
  });
});
