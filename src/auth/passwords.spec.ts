import assert from 'node:assert/strict';
import { setImmediate } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { ClientBusyError, ServiceBusyError } from '../platform/fair-queue.js';
import { hashPassword, passwordHashing, verifyPassword, type PasswordDoor } from './passwords.js';

/** Takes every hashing slot until `release` is called. */
function holdHashing(): { release: () => void; held: Promise<unknown> } {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const slot = { lane: 'holder', client: 'holder', wanted: () => true };
  const held = Promise.all(Array.from({ length: passwordHashing.limits.concurrency }, () => passwordHashing.run(slot, () => gate)));
  return { release, held };
}

describe('password hashes', () => {
  // Logins are checked for their request (its client, whether it still wants the answer), given explicitly.
  const check = (stored: string, password: string, wanted: () => boolean, client: string, door: PasswordDoor = 'token') =>
    verifyPassword(password, stored, { wanted, client, door });

  it('let one client address have 16 checks waiting, refuse the next with ClientBusyError, and drop an abandoned one', async () => {
    const stored = await hashPassword('stored');
    const { concurrency, perClientWaiting } = passwordHashing.limits;
    assert.ok(perClientWaiting >= 16);
    const mine = Array.from({ length: concurrency + perClientWaiting }, (_, i) => check(stored, `guess ${i}`, () => true, 'office'));
    await assert.rejects(
      check(stored, 'one more guess', () => true, 'office'),
      ClientBusyError,
    );
    let wanted = true;
    const abandoned = check(stored, 'abandoned', () => wanted, 'gone').then(
      () => 'checked',
      (error: unknown) => error,
    );
    const other = check(stored, 'a login', () => true, 'someone else');
    wanted = false;
    assert.deepEqual(new Set(await Promise.all([...mine, other])), new Set([false]));
    assert.ok((await abandoned) instanceof ServiceBusyError);
    await assert.rejects(
      check(stored, 'gone already', () => false, 'b'),
      ServiceBusyError,
    );
  });

  it('serve an address whose login succeeded lately in a lane of its own, beside a full lane of others', async () => {
    const stored = await hashPassword('stored');
    assert.equal(await check(stored, 'stored', () => true, 'known address'), true);
    const hashing = holdHashing();
    // The flood's checks are abandoned before their turn (so the test does not wait for 64 hashes).
    let floodWanted = true;
    const flood = Array.from({ length: passwordHashing.limits.laneWaiting }, (_, i) =>
      check(stored, `guess ${i}`, () => floodWanted, `random ${i}`),
    );
    await assert.rejects(
      check(stored, 'one too many', () => true, 'one more random'),
      ServiceBusyError,
    );
    const known = check(stored, 'stored', () => true, 'known address');
    floodWanted = false;
    const floodSettled = Promise.allSettled(flood);
    hashing.release();
    assert.equal(await known, true);
    for (const refused of await floodSettled) assert.ok(refused.status === 'rejected' && refused.reason instanceof ServiceBusyError);
    await hashing.held;
  });

  it('keep a full lane of Basic credentials from random addresses apart from a login at /api/token from an address never seen', async () => {
    const stored = await hashPassword('stored');
    const hashing = holdHashing();
    let floodWanted = true;
    const flood = Array.from({ length: passwordHashing.limits.laneWaiting }, (_, i) =>
      check(stored, `guess ${i}`, () => floodWanted, `basic ${i}`, 'basic'),
    );
    await assert.rejects(
      check(stored, 'one too many', () => true, 'one more basic', 'basic'),
      ServiceBusyError,
    );
    // Not refused for the flood: it waits in the logins' lane, served in turn with the flood's.
    const login = check(stored, 'stored', () => true, 'a new address', 'token');
    floodWanted = false;
    const floodSettled = Promise.allSettled(flood);
    hashing.release();
    assert.equal(await login, true);
    for (const refused of await floodSettled) assert.ok(refused.status === 'rejected' && refused.reason instanceof ServiceBusyError);
    await hashing.held;
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
