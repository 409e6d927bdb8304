// npm run test:cluster: two instances of the built service (the Dockerfile's command) on one MariaDB
// database and one Redis, behind nginx, and what a load-balanced deployment must guarantee.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { validateEnvironment } from '../../src/config/configuration.js';
import { buildDataSourceOptions } from '../../src/database/data-source-options.js';
import { httpRequest } from '../support/http.js';
import { startNginx, type Nginx } from '../support/nginx.js';
import { sleep, startService, type Service } from '../support/service.js';
import { basicAuth, freshMySqlDatabase, TEST_JWT_SECRET } from '../support/test-app.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ADMIN = { email: 'cluster-admin@test.example', password: 'cluster-admin-password' };
const TOKEN_LIMIT = 10;

interface Res {
  status: number;
  body: any;
  upstream: string | null;
}

/** Every call names a client address (X-Forwarded-For), so each scenario has rate-limit counters of its own. */
async function call(
  base: string,
  method: string,
  path: string,
  options: { auth?: string; json?: unknown; form?: Record<string, string>; client: string },
): Promise<Res> {
  const headers: Record<string, string> = { 'x-forwarded-for': options.client };
  if (options.auth) headers.authorization = options.auth;
  const res = await httpRequest(base + path, { method, headers, json: options.json, form: options.form });
  return { status: res.status, body: res.body, upstream: res.headers.get('x-upstream') };
}

describe('two instances behind nginx, one MariaDB database, one Redis', () => {
  let database: Awaited<ReturnType<typeof freshMySqlDatabase>>;
  let a: Service;
  let b: Service;
  let nginx: Nginx;
  const prefix = `cw-cluster-${randomBytes(4).toString('hex')}:`;
  const admin = basicAuth(ADMIN.email, ADMIN.password);
  let currencyId: number;
  let countryId: number;

  before(async () => {
    database = await freshMySqlDatabase();
    const env = {
      DATABASE_URL: database.url,
      JWT_SECRET: TEST_JWT_SECRET,
      REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      TRUST_PROXY: '127.0.0.1',
      RATE_LIMIT_TOKEN_PER_MINUTE: String(TOKEN_LIMIT),
    };
    // Both start at once: the migrations run once, under the lock, and one administrator is created.
    [a, b] = await Promise.all([startService('A', env), startService('B', env)]);
    nginx = await startNginx([a.port, b.port]);
    const currencies = await call(a.url, 'GET', '/api/sys/currencies?Currency_Code=EUR', { auth: admin, client: '10.9.0.1' });
    const countries = await call(a.url, 'GET', '/api/sys/countries?Country_TwoDigitsCode=DE', { auth: admin, client: '10.9.0.1' });
    currencyId = currencies.body.Records[0].Id;
    countryId = countries.body.Records[0].Id;
  });

  after(async () => {
    await nginx?.stop();
    await a?.stop();
    await b?.stop();
    await database?.drop();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  const token = async (base: string, client: string, form: Record<string, string>) => call(base, 'POST', '/api/token', { form, client });

  it('the migrations ran once and one administrator exists, though both instances started together', async () => {
    const users = await call(b.url, 'GET', '/api/sys/users', { auth: admin, client: '10.9.0.2' });
    assert.equal(users.status, 200);
    assert.equal(users.body.Records.filter((u: { Email: string }) => u.Email === ADMIN.email).length, 1);
  });

  it('an access token issued by one instance works on the other', async () => {
    const issued = await token(a.url, '10.9.1.1', { grant_type: 'password', username: ADMIN.email, password: ADMIN.password });
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    const onB = await call(b.url, 'GET', '/api/sys/businesses', { auth: `Bearer ${issued.body.access_token}`, client: '10.9.1.1' });
    assert.equal(onB.status, 200, JSON.stringify(onB.body));
    const viaB = await token(b.url, '10.9.1.1', {
      grant_type: 'password',
      username: ADMIN.email,
      password: ADMIN.password,
      client_id: 'other',
    });
    assert.equal(
      (await call(a.url, 'GET', '/api/sys/businesses', { auth: `Bearer ${viaB.body.access_token}`, client: '10.9.1.1' })).status,
      200,
    );
  });

  it('a refresh token rotated on one instance is refused on the other', async () => {
    const client = '10.9.2.1';
    const first = await token(a.url, client, {
      grant_type: 'password',
      username: ADMIN.email,
      password: ADMIN.password,
      client_id: 'rotation',
    });
    const rotated = await token(a.url, client, {
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token,
      client_id: 'rotation',
    });
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    const replayed = await token(b.url, client, {
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token,
      client_id: 'rotation',
    });
    assert.deepEqual([replayed.status, replayed.body.error], [400, 'invalid_grant']);
    // Replay detection revoked the whole family, on every instance.
    const successor = await token(b.url, client, {
      grant_type: 'refresh_token',
      refresh_token: rotated.body.refresh_token,
      client_id: 'rotation',
    });
    assert.deepEqual([successor.status, successor.body.error], [400, 'invalid_grant']);
  });

  it('a user deactivated on one instance is refused on the other within 5 seconds', async () => {
    const client = '10.9.3.1';
    const email = `cluster-user-${randomBytes(3).toString('hex')}@test.example`;
    const created = await call(a.url, 'POST', '/api/sys/users', {
      auth: admin,
      client,
      json: { Email: email, FullName: 'Cluster User', Password: 'cluster-user-password', Roles: ['Business-List'] },
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const issued = await token(b.url, client, { grant_type: 'password', username: email, password: 'cluster-user-password' });
    const bearer = `Bearer ${issued.body.access_token}`;
    assert.equal((await call(b.url, 'GET', '/api/sys/businesses', { auth: bearer, client })).status, 200, 'B knows the user as active');

    const deactivated = await call(a.url, 'PUT', '/api/sys/users', {
      auth: admin,
      client,
      json: { Id: created.body.Value.Id, Email: email, FullName: 'Cluster User', Active: false },
    });
    assert.equal(deactivated.status, 200, JSON.stringify(deactivated.body));
    const start = Date.now();
    for (;;) {
      const res = await call(b.url, 'GET', '/api/sys/businesses', { auth: bearer, client });
      if (res.status === 401) break;
      assert.equal(res.status, 200);
      assert.ok(Date.now() - start <= 5000, 'still accepted on B after 5 s');
      await sleep(100);
    }
    assert.ok(Date.now() - start <= 5000);
  });

  it('the rate limit counts across both instances (Redis), by the address nginx forwards', async () => {
    const client = '198.51.100.23';
    const results: Res[] = [];
    for (let i = 0; i < TOKEN_LIMIT + 2; i++) {
      // An unknown user, so the failures lock no account out.
      results.push(
        await token(nginx.url, client, { grant_type: 'password', username: 'nobody@test.example', password: 'not the password' }),
      );
    }
    const statuses = results.map((r) => r.status);
    assert.deepEqual(
      statuses,
      [...Array<number>(TOKEN_LIMIT).fill(400), 429, 429],
      JSON.stringify(results.map((r) => [r.status, r.upstream])),
    );
    const served = (port: number) => results.slice(0, TOKEN_LIMIT).filter((r) => r.upstream === `127.0.0.1:${port}`).length;
    assert.ok(
      served(a.port) >= 3 && served(b.port) >= 3,
      `each instance saw only part of the ${TOKEN_LIMIT}: A ${served(a.port)}, B ${served(b.port)}`,
    );
    assert.equal(results[TOKEN_LIMIT].body.Status, 429);
    // Another client address still has its own allowance.
    assert.equal(
      (await token(nginx.url, '198.51.100.24', { grant_type: 'password', username: 'nobody@test.example', password: 'not the password' }))
        .status,
      400,
    );
  });

  it('stopping one instance mid-load loses no acknowledged write, and the other keeps serving', async (context) => {
    const client = '10.9.5.1';
    const issued = await token(nginx.url, client, { grant_type: 'password', username: ADMIN.email, password: ADMIN.password });
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    const bearer = `Bearer ${issued.body.access_token}`;
    const acknowledged: number[] = [];
    const failures: string[] = [];
    const servedAfterExit: string[] = [];
    let stoppedAt = Infinity;
    let exited = false;
    let sent = 0;
    let sentAfterExit = 0;
    const TOTAL = 240;
    // The load goes on until TOTAL creates are sent and, whenever A's exit comes, AFTER_EXIT more
    // after it: a fast service may otherwise finish the whole load while A is still draining.
    const AFTER_EXIT = 30;
    const worker = async (w: number) => {
      while (sent < TOTAL || !exited || sentAfterExit < AFTER_EXIT) {
        const n = sent++;
        const afterExit = exited;
        if (afterExit) sentAfterExit++;
        try {
          const res = await call(nginx.url, 'POST', '/api/sys/businesses', {
            auth: bearer,
            client,
            json: { Name: `Load ${w}-${n}`, CurrencyId: currencyId, CountryId: countryId },
          });
          if (res.status === 200 && res.body?.WasSuccessful) {
            acknowledged.push(res.body.Value.Id);
            if (afterExit) servedAfterExit.push(res.upstream ?? '');
          } else {
            failures.push(`${res.status} ${JSON.stringify(res.body)}`);
          }
        } catch (error) {
          failures.push(String(error));
        }
      }
    };
    const load = Promise.all([1, 2, 3, 4, 5, 6].map(worker));
    while (sent < TOTAL / 3) await sleep(10);
    stoppedAt = Date.now();
    const exit = await a.stop();
    exited = true;
    const exitedAfter = Date.now() - stoppedAt;
    const sentAtExit = sent;
    await load;
    context.diagnostic(
      `SIGTERM to A after ${Math.round(TOTAL / 3)} of ${TOTAL} creates; A exited ${exitedAfter} ms later (${sentAtExit} sent by then); ` +
        `${sent} sent in all, ${acknowledged.length} acknowledged (${servedAfterExit.length} sent after A exited), ${failures.length} refused or failed${failures.length ? `: ${failures.slice(0, 3).join(' | ')}` : ''}`,
    );

    assert.deepEqual(exit, { code: 0, signal: null }, `A exits 0 after draining:\n${a.output()}`);
    assert.ok(
      acknowledged.length >= sent * 0.9,
      `${acknowledged.length} of ${sent} acknowledged; failures: ${failures.slice(0, 5).join(' | ')}`,
    );
    assert.ok(
      servedAfterExit.length >= AFTER_EXIT * 0.9 && servedAfterExit.every((upstream) => upstream.endsWith(`:${b.port}`)),
      `B served after A exited: ${servedAfterExit.length}, ${servedAfterExit.slice(0, 5).join(', ')}`,
    );

    // Every acknowledged id is in the database.
    const dataSource = await new DataSource(buildDataSourceOptions(validateEnvironment({ DATABASE_URL: database.url }))).initialize();
    try {
      const rows: Array<{ Id: number }> = await dataSource.query('SELECT Id FROM business WHERE Name LIKE ?', ['Load %']);
      const stored = new Set(rows.map((row) => Number(row.Id)));
      const missing = acknowledged.filter((id) => !stored.has(id));
      assert.deepEqual(missing, [], 'acknowledged writes missing');
    } finally {
      await dataSource.destroy();
    }
    // And B still answers, through nginx and directly.
    assert.equal((await call(nginx.url, 'GET', '/health', { client })).status, 200);
    const list = await call(b.url, 'GET', `/api/sys/businesses?id=[${acknowledged.slice(0, 50).join(',')}]`, { auth: bearer, client });
    assert.equal(list.status, 200);
    assert.equal(list.body.length, Math.min(50, acknowledged.length));
  });
});
