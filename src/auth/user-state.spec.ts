import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import type { ConfigService } from '@nestjs/config';
import { JwtService } from '@nestjs/jwt';
import type { AppConfig } from '../config/configuration.js';
import { AuthService, PRINCIPAL_CACHE_MS, PRINCIPAL_REREAD_AHEAD_MS } from './auth.service.js';
import type { UserAccess, UserLoginRepository } from './user-login.repository.js';

/** AuthService over one user whose reads are counted and finish when the test lets them. */
function setUp() {
  const access: UserAccess = {
    email: 'ann@example.com',
    active: true,
    isAdmin: false,
    roles: ['Product-Read'],
    twoFactor: false,
    stamp: 3,
    lockedUntil: null,
    coworkerId: null,
    businessIds: [1],
    revokedFamilies: [],
  };
  const pending: Array<() => void> = [];
  let reads = 0;
  const users = {
    findAccess: async () => {
      reads++;
      const stamp = access.stamp;
      await new Promise<void>((resolve) => pending.push(resolve));
      return { ...access, stamp };
    },
  } as unknown as UserLoginRepository;
  const settings: Record<string, unknown> = { ACCESS_TOKEN_TTL_SECONDS: 1800, JWT_SECRET: 'unit-test-secret', JWT_PREVIOUS_SECRETS: [] };
  const config = { get: (name: string) => settings[name] } as unknown as ConfigService<AppConfig, true>;
  const auth = new AuthService(users, new JwtService({ secret: 'unit-test-secret' }), config);
  const finishReads = async (newestFirst = false) => {
    while (pending.length) (newestFirst ? pending.pop() : pending.shift())!();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { auth, access, reads: () => reads, finishReads };
}

/** Runs `test` on a mocked clock, with user 7's state read once and cached. */
async function withCachedState(
  test: (s: ReturnType<typeof setUp>, cached: unknown, clock: typeof mock.timers) => Promise<void>,
): Promise<void> {
  const clock = mock.timers;
  clock.enable({ apis: ['Date'], now: 1_000_000 });
  try {
    const s = setUp();
    const first = s.auth.userState(7);
    await s.finishReads();
    await test(s, await first, clock);
  } finally {
    clock.reset();
  }
}

describe('user state cache', () => {
  it('shares one read among the requests that need the state while it is read', async () => {
    const s = setUp();
    const states = Promise.all(Array.from({ length: 20 }, () => s.auth.userState(7)));
    await s.finishReads();
    const all = await states;
    assert.equal(s.reads(), 1);
    assert.ok(all.every((state) => state === all[0] && state?.stamp === 3));
  });

  it('reads again in the background before the state expires, and no request waits for it', () =>
    withCachedState(async (s, cached, clock) => {
      clock.tick(PRINCIPAL_CACHE_MS - PRINCIPAL_REREAD_AHEAD_MS - 1);
      assert.equal(await s.auth.userState(7), cached);
      assert.equal(s.reads(), 1, 'read again before the last stretch of its life');
      clock.tick(2);
      s.access.stamp = 4;
      // Answered from the cache at once while the re-read is under way; one re-read for many requests.
      assert.equal(await s.auth.userState(7), cached);
      assert.equal(await s.auth.userState(7), cached);
      assert.equal(s.reads(), 2);
      await s.finishReads();
      assert.equal((await s.auth.userState(7))?.stamp, 4);
      assert.equal(s.reads(), 2);
    }));

  it('never uses a state older than its two seconds: past them a request waits for the read', () =>
    withCachedState(async (s, _cached, clock) => {
      clock.tick(PRINCIPAL_CACHE_MS);
      s.access.stamp = 5;
      const later = s.auth.userState(7);
      await s.finishReads();
      assert.equal((await later)?.stamp, 5);
    }));

  it('caches nothing read before forget(), and later requests read again', async () => {
    const s = setUp();
    const before = s.auth.userState(7);
    s.auth.forget(7);
    s.access.stamp = 6;
    const after = s.auth.userState(7);
    // The newer read finishes first: the older one, finishing last, must not put its state back.
    await s.finishReads(true);
    assert.equal((await before)?.stamp, 3, 'the read begun before answers its own callers');
    assert.equal((await after)?.stamp, 6);
    assert.equal((await s.auth.userState(7))?.stamp, 6);
    assert.equal(s.reads(), 2);
  });
});
