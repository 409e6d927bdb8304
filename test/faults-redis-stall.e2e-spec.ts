import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import type { Redis } from 'ioredis';
import { startRedisServer, type RedisServer } from './support/redis-server.js';
import { sleep } from './support/service.js';
import { startApp, type TestApp } from './support/test-app.js';

// docs/operations.md, "Redis": a stalled Redis (SIGSTOP: connections open, nothing answered) costs a
// request no more than a few milliseconds; the rate limits are counted in the process meanwhile, and
// in Redis again once it answers. Against a redis-server of the test's own, never the shared one.

const LIMIT = 30;
const PREFIX = 'stall-test:';
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;
if (!hasRedisServer && process.env.CI) throw new Error('redis-server is not installed; CI needs it (.ci/run installs it).');

describe(
  'the rate limiter when Redis stalls (SIGSTOP) and comes back (SIGCONT)',
  { skip: !hasRedisServer && 'redis-server is not installed' },
  () => {
    let redis: RedisServer;
    let client: Redis;
    let t: TestApp;
    before(async () => {
      redis = await startRedisServer();
      client = redis.client();
      t = await startApp({
        REDIS_URL: redis.url,
        REDIS_KEY_PREFIX: PREFIX,
        RATE_LIMIT_PER_MINUTE: String(LIMIT),
        TRUST_PROXY: '127.0.0.1',
        METRICS_ENABLED: 'true',
      });
    });
    after(async () => {
      redis?.resume();
      client?.disconnect();
      await t?.close();
      await redis?.stop();
    });

    /** One cheap read from a client address of its own; its status and how long it took. */
    const timed = async (address: string) => {
      const started = performance.now();
      const res = await t.get('/api/sys/currencies?Currency_Code=GBP', { headers: { 'x-forwarded-for': address } });
      return { status: res.status, ms: performance.now() - started };
    };
    const hitsInRedis = async (address: string) => Number(await client.get(`${PREFIX}throttle:default:api:${address}:hits`));
    const countedInRedis = async () => /^coworking_rate_limit_redis 1$/m.test((await t.get('/metrics', { auth: null })).text);

    it('counts in Redis, answers within 100 ms of normal while Redis is stopped, still enforces the limit, and goes back to Redis', async () => {
      await timed('10.0.0.99');
      const normal: number[] = [];
      for (let i = 0; i < 20; i++) {
        const answer = await timed('10.0.0.1');
        assert.equal(answer.status, 200);
        normal.push(answer.ms);
      }
      assert.equal(await hitsInRedis('10.0.0.1'), 20, 'hits are counted in Redis');
      assert.equal(await countedInRedis(), true);
      const usual = median(normal);

      redis.pause();
      const stalled: number[] = [];
      for (let i = 0; i < 25; i++) {
        const answer = await timed('10.0.0.2');
        assert.equal(answer.status, 200);
        stalled.push(answer.ms);
      }
      // The first few may wait for the breaker's timeout; none waits for Redis's.
      const slow = stalled.slice(3).filter((ms) => ms > usual + 100);
      assert.deepEqual(slow.map(Math.round), [], `normal ${usual.toFixed(1)} ms; while stalled: ${stalled.map(Math.round).join(' ')}`);
      assert.ok(Math.max(...stalled) < 1000, `the slowest answer while stalled took ${Math.round(Math.max(...stalled))} ms`);
      assert.equal(await countedInRedis(), false, 'the breaker is open');

      // The limit still holds, counted in this process: LIMIT answers, then 429.
      const statuses: number[] = [];
      for (let i = 0; i < LIMIT + 5; i++) statuses.push((await timed('10.0.0.3')).status);
      assert.deepEqual(
        statuses.slice(0, LIMIT).filter((status) => status !== 200),
        [],
        statuses.join(),
      );
      assert.deepEqual(statuses.slice(LIMIT), [429, 429, 429, 429, 429], statuses.join());

      redis.resume();
      // The breaker tries Redis again (at most every second) and closes on its answer.
      for (let waited = 0; !(await countedInRedis()); waited += 100) {
        assert.ok(waited < 5000, 'the limiter went back to Redis within 5 s of its return');
        await timed('10.0.0.4');
        await sleep(100);
      }
      for (let i = 0; i < 10; i++) assert.equal((await timed('10.0.0.5')).status, 200);
      assert.equal(await hitsInRedis('10.0.0.5'), 10, 'hits are counted in Redis again');
    });
  },
);
