import assert from 'node:assert/strict';
import { setImmediate } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { hashPassword, passwordHashing, verifyPassword } from './passwords.js';

describe('password hashes', () => {
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
