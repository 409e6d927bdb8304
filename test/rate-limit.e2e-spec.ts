import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { requestToken } from './support/auth.js';
import { ADMIN_EMAIL, startApp, type TestApp } from './support/test-app.js';

// The client address the rate limit counts by, and the limit shared through Redis (docs/api.md §2.2).
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const badLogin = (t: TestApp, forwardedFor?: string) =>
  requestToken(
    t,
    { grant_type: 'password', username: ADMIN_EMAIL, password: 'wrong' },
    forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  );

describe('rate limits per client address', () => {
  const apps: TestApp[] = [];
  after(async () => {
    for (const app of apps) await app.close();
  });

  it('without TRUST_PROXY, X-Forwarded-For is ignored: a client cannot pose as many', async () => {
    const t = await startApp({ RATE_LIMIT_TOKEN_PER_MINUTE: '3' });
    apps.push(t);
    const statuses = [];
    for (let i = 1; i <= 4; i++) statuses.push((await badLogin(t, `203.0.113.${i}`)).status);
    assert.deepEqual(statuses, [400, 400, 400, 429]);
  });

  it('behind a trusted proxy, the forwarded client address is the one counted', async () => {
    const t = await startApp({ RATE_LIMIT_TOKEN_PER_MINUTE: '3', TRUST_PROXY: '127.0.0.1' });
    apps.push(t);
    const distinct = [];
    for (let i = 1; i <= 4; i++) distinct.push((await badLogin(t, `203.0.113.${i}`)).status);
    assert.deepEqual(distinct, [400, 400, 400, 400]);
    const same = [];
    for (let i = 1; i <= 4; i++) same.push(await badLogin(t, '198.51.100.7'));
    assert.deepEqual(
      same.map((r) => r.status),
      [400, 400, 400, 429],
    );
    assert.ok(Number(same[3].headers.get('retry-after')) > 0);
    assert.equal(same[3].body.Status, 429);
  });

  it('with REDIS_URL, instances share one count', async (context) => {
    const probe = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => undefined);
    const reachable = await probe.connect().then(
      () => true,
      () => false,
    );
    if (!reachable) {
      probe.disconnect();
      if (process.env.CI) assert.fail(`Redis is not reachable at ${REDIS_URL}; CI needs it.`);
      context.skip(`Redis is not reachable at ${REDIS_URL}`);
      return;
    }
    const prefix = `cw-test-${randomBytes(4).toString('hex')}:`;
    try {
      const env = { RATE_LIMIT_TOKEN_PER_MINUTE: '4', REDIS_URL, REDIS_KEY_PREFIX: prefix };
      const a = await startApp(env);
      apps.push(a);
      const b = await startApp(env);
      apps.push(b);
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await badLogin(i % 2 ? b : a)).status);
      assert.deepEqual(statuses, [400, 400, 400, 400, 429, 429]);
    } finally {
      const keys = await probe.keys(`${prefix}*`);
      if (keys.length) await probe.del(...keys);
      probe.disconnect();
    }
  });
});
