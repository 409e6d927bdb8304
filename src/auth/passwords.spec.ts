import assert from 'node:assert/strict';
import { setImmediate } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { ServiceBusyError } from '../common/http-exception.filter.js';
import { hashPassword, passwordHashing, verifyPassword } from './passwords.js';

describe('password hashes', () => {
  // Logins are checked for their request (its client, whether it still wants the answer), given explicitly.
  const check = (stored: string, password: string, wanted: () => boolean, client: string) => verifyPassword(password, stored, { wanted, client });

  it('refuse a check at once when the capacity and its queue are full, and drop an abandoned one', async () => {
    const stored = await hashPassword('stored');
    const limit = passwordHashing.concurrency + passwordHashing.queueLimit;
    const checks = Array.from({ length: limit - 1 }, (_, i) => check(stored, `password ${i}`, () => true, `client ${i}`));
    let wanted = true;
    const abandoned = check(stored, 'abandoned', () => wanted, 'a').then(() => 'checked', (error: unknown) => error);
    await assert.rejects(check(stored, 'one too many', () => true, 'c'), ServiceBusyError);
    wanted = false;
    await Promise.all(checks);
    assert.ok(await abandoned instanceof ServiceBusyError);
    await assert.rejects(check(stored, 'gone already', () => false, 'b'), ServiceBusyError);
  });

  it('let one client address hold only a few checks at once', async () => {
    const stored = await hashPassword('stored');
    const mine = Array.from({ length: passwordHashing.perClient }, (_, i) => check(stored, `guess ${i}`, () => true, 'flood'));
    await assert.rejects(check(stored, 'one more guess', () => true, 'flood'), ServiceBusyError);
    const other = check(stored, 'a login', () => true, 'someone else');
    await Promise.all([...mine, other]);
  });

  it('verify the password they were made from, and no other', async () => {
    const stored = await hashPassword('correct horse battery');
    assert.match(stored, /^scrypt\$16384\$8\$1\$[\w-]+\$[\w-]+$/);
    assert.equal(await verifyPassword('correct horse battery', stored), true);
    assert.equal(await verifyPassword('correct horse batteries', stored), false);
    assert.equal(await verifyPassword('anything', 'not-a-hash'), false);
  });

  it('run at most two at a time; the rest wait their turn and all finish', async () => {
    const hashes = Array.from({ length: 6 }, (_, i) => hashPassword(`password ${i}`));
    let most = 0;
    while (passwordHashing.activeCount + passwordHashing.pendingCount > 0) {
      most = Math.max(most, passwordHashing.activeCount);
      await setImmediate();
    }
    const stored = await Promise.all(hashes);
    assert.equal(most, 2);
    assert.equal(new Set(stored).size, 6);
    assert.equal(await verifyPassword('password 5', stored[5]), true);
  });
});
