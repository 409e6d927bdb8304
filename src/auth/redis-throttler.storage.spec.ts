import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { RedisThrottlerStorage } from './redis-throttler.storage.js';

// Against the Redis server of the machine (REDIS at 127.0.0.1:6379, or TEST_REDIS_URL), under a key
// prefix of this run's own; skipped when there is none, except in CI.
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function reachable(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

const available = await reachable();
if (!available && process.env.CI) throw new Error(`Redis is not reachable at ${REDIS_URL}; CI needs it.`);

describe('RedisThrottlerStorage', { skip: !available && `Redis is not reachable at ${REDIS_URL}` }, () => {
  const prefix = `cw-test-${randomBytes(4).toString('hex')}:`;
  let storage: RedisThrottlerStorage;
  let other: RedisThrottlerStorage;
  let admin: Redis;

  before(async () => {
    storage = new RedisThrottlerStorage(REDIS_URL, prefix);
    other = new RedisThrottlerStorage(REDIS_URL, prefix);
    admin = new Redis(REDIS_URL);
    assert.ok((await storage.ready(3000)) && (await other.ready(3000)));
  });
  after(async () => {
    const keys = await admin.keys(`${prefix}*`);
    if (keys.length) await admin.del(...keys);
    await storage.onApplicationShutdown();
    await other.onApplicationShutdown();
    admin.disconnect();
  });

  it('counts every hit once, atomically, across clients sharing the server', async () => {
    const hits = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? storage : other).increment('api:10.0.0.1', 60_000, 1000, 60_000, 'default')),
    );
    assert.deepEqual(
      hits.map((h) => h.totalHits).sort((a, b) => a - b),
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
    assert.ok(hits.every((h) => !h.isBlocked && h.timeToExpire > 0 && h.timeToExpire <= 60));
  });

  it('keeps its keys under the prefix, expiring with the window', async () => {
    await storage.increment('token:10.0.0.2', 5000, 10, 5000, 'default');
    const keys = await admin.keys(`${prefix}*`);
    assert.ok(keys.length > 0 && keys.every((key) => key.startsWith(`${prefix}throttle:`)), keys.join(', '));
    const ttl = await admin.pttl(`${prefix}throttle:default:token:10.0.0.2:hits`);
    assert.ok(ttl > 0 && ttl <= 5000, `ttl ${ttl}`);
  });

  it('blocks past the limit for the block duration, then counts afresh', async () => {
    const key = 'token:10.0.0.3';
    for (let i = 1; i <= 3; i++) assert.equal((await storage.increment(key, 60_000, 3, 1000, 'default')).isBlocked, false);
    const over = await other.increment(key, 60_000, 3, 1000, 'default');
    assert.deepEqual([over.isBlocked, over.timeToBlockExpire], [true, 1]);
    assert.equal((await storage.increment(key, 60_000, 3, 1000, 'default')).isBlocked, true, 'blocked on every instance');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const afterBlock = await storage.increment(key, 60_000, 3, 1000, 'default');
    assert.deepEqual([afterBlock.isBlocked, afterBlock.totalHits], [false, 1]);
  });

  it('fails open when Redis cannot be reached: the request passes', async () => {
    const unreachable = new RedisThrottlerStorage('redis://127.0.0.1:1', prefix);
    try {
      const started = Date.now();
      const result = await unreachable.increment('api:10.0.0.4', 60_000, 1, 60_000, 'default');
      assert.equal(result.isBlocked, false);
      assert.ok(Date.now() - started < 2000);
    } finally {
      await unreachable.onApplicationShutdown();
    }
  });
});
