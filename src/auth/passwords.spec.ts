import assert from 'node:assert/strict';
import { setImmediate } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { ServiceBusyError } from '../common/http-exception.filter.js';
import { hashPassword, passwordHashing, passwordRequest, verifyPassword } from './passwords.js';

describe('password hashes', () => {
  it('refuse a check at once when the capacity and its queue are full, and drop an abandoned one', async () => {
    const limit = passwordHashing.concurrency + passwordHashing.queueLimit;
    const hashes = Array.from({ length: limit - 1 }, (_, i) => passwordRequest.run({ wanted: () => true, client: `client ${i}` }, () => hashPassword(`password ${i}`)));
    let wanted = true;
    const abandoned = passwordRequest.run({ wanted: () => wanted, client: 'a' }, () => hashPassword('abandoned')).then(() => 'hashed', (error: unknown) => error);
    await assert.rejects(passwordRequest.run({ wanted: () => true, client: 'c' }, () => hashPassword('one too many')), ServiceBusyError);
    wanted = false;
    await Promise.all(hashes);
    assert.ok(await abandoned instanceof ServiceBusyError);
    await assert.rejects(passwordRequest.run({ wanted: () => false, client: 'b' }, () => hashPassword('gone already')), ServiceBusyError);
  });

  it('let one client address hold only a few checks at once', async () => {
    const mine = Array.from({ length: passwordHashing.perClient }, (_, i) => passwordRequest.run({ wanted: () => true, client: 'flood' }, () => hashPassword(`guess ${i}`)));
    await assert.rejects(passwordRequest.run({ wanted: () => true, client: 'flood' }, () => hashPassword('one more guess')), ServiceBusyError);
    const other = passwordRequest.run({ wanted: () => true, client: 'someone else' }, () => hashPassword('a login'));
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
