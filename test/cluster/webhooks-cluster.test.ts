// npm run test:cluster: webhook deliveries shared by two instances of the built service on one MariaDB
// database behind nginx — each change delivered at least once, none twice without a due retry, and
// nothing lost when one instance stops mid-delivery.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import mysql from 'mysql2/promise';
import { startNginx, type Nginx } from '../support/nginx.js';
import { sleep, startService, type Service } from '../support/service.js';
import { basicAuth, freshMySqlDatabase, TEST_JWT_SECRET } from '../support/test-app.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';

const ADMIN = { email: 'hooks-admin@test.example', password: 'hooks-admin-password' };
const CHANGES = 200;

async function call(base: string, method: string, path: string, json?: unknown): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { authorization: basicAuth(ADMIN.email, ADMIN.password) };
  if (json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(base + path, {
    method,
    headers,
    body: json === undefined ? undefined : JSON.stringify(json),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  try {
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  } catch {
    // nginx's own error page, while an instance stops
    return { status: res.status, body: text };
  }
}

describe('webhook deliveries shared by two instances behind nginx on MariaDB', () => {
  let database: Awaited<ReturnType<typeof freshMySqlDatabase>>;
  let a: Service;
  let b: Service;
  let nginx: Nginx;
  let receiver: Receiver;

  before(async () => {
    database = await freshMySqlDatabase();
    // A receiver that takes a little while to answer, so that attempts are in flight when A stops.
    receiver = await startReceiver();
    const env = {
      DATABASE_URL: database.url,
      JWT_SECRET: TEST_JWT_SECRET,
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_DELAYS: '1,1,1',
    };
    [a, b] = await Promise.all([startService('A', env), startService('B', env)]);
    nginx = await startNginx([a.port, b.port]);
  });

  after(async () => {
    await nginx?.stop();
    await a?.stop();
    await b?.stop();
    await receiver?.close();
    await database?.drop();
  });

  it('a hook created through one instance fires for a change made through the other right after the answer, though that one had just read that there was none', async () => {
    const currencyId = (await call(a.url, 'GET', '/api/sys/currencies?Currency_Code=EUR')).body.Records[0].Id;
    const countryId = (await call(a.url, 'GET', '/api/sys/countries?Country_TwoDigitsCode=DE')).body.Records[0].Id;
    for (let round = 0; round < 3; round++) {
      const business = await call(b.url, 'POST', '/api/sys/businesses', {
        Name: `Late hook ${round}`,
        CurrencyId: currencyId,
        CountryId: countryId,
      });
      const businessId = business.body.Value.Id;
      // B's changes in the business keep its index of active hooks fresh: it knows the business has none.
      for (let i = 0; i < 3; i++)
        assert.equal(
          (
            await call(b.url, 'POST', '/api/billing/tariffs', {
              BusinessId: businessId,
              Name: `Before ${i}`,
              Price: 1,
              CurrencyId: currencyId,
            })
          ).status,
          200,
        );
      await sleep(20);
      const path = `/late-${round}`;
      const hook = await call(a.url, 'POST', '/api/sys/webhooks', {
        BusinessId: businessId,
        Name: 'late',
        Action: 74,
        URL: `${receiver.url}${path}`,
      });
      assert.equal(hook.status, 200, JSON.stringify(hook.body));
      const tariff = await call(b.url, 'POST', '/api/billing/tariffs', {
        BusinessId: businessId,
        Name: 'After',
        Price: 2,
        CurrencyId: currencyId,
      });
      assert.equal(tariff.status, 200, JSON.stringify(tariff.body));
      const start = Date.now();
      while (!receiver.at(path).some((r) => JSON.parse(r.body)[0].Id === tariff.body.Value.Id)) {
        assert.ok(
          Date.now() - start < 15_000,
          `round ${round}: the change made through B after the hook was created through A was not delivered`,
        );
        await sleep(100);
      }
      assert.equal(receiver.at(path).length, 1, 'only the change after the hook');
    }
  });

  it(`${CHANGES} changes through both instances: each delivered at least once, none twice without a due retry, none lost when one stops`, async (context) => {
    const currencies = await call(nginx.url, 'GET', '/api/sys/currencies?Currency_Code=EUR');
    const countries = await call(nginx.url, 'GET', '/api/sys/countries?Country_TwoDigitsCode=DE');
    const currencyId = currencies.body.Records[0].Id;
    const business = await call(nginx.url, 'POST', '/api/sys/businesses', {
      Name: 'Hooked',
      CurrencyId: currencyId,
      CountryId: countries.body.Records[0].Id,
    });
    const businessId = business.body.Value.Id;
    const hook = await call(nginx.url, 'POST', '/api/sys/webhooks', {
      BusinessId: businessId,
      Name: 'tariffs',
      Action: 74,
      URL: `${receiver.url}/tariffs`,
    });
    assert.equal(hook.status, 200, JSON.stringify(hook.body));

    const created: number[] = [];
    let sent = 0;
    let stopped: Promise<{ code: number | null; signal: NodeJS.Signals | null }> | undefined;
    const worker = async () => {
      while (sent < CHANGES) {
        const n = sent++;
        const res = await call(nginx.url, 'POST', '/api/billing/tariffs', {
          BusinessId: businessId,
          Name: `Plan ${n}`,
          Price: n,
          CurrencyId: currencyId,
        }).catch(() => null);
        if (res?.status === 200) created.push(res.body.Value.Id);
        // Halfway, once deliveries are flowing, A is stopped: its attempts in flight finish, the rest is B's.
        if (n === CHANGES / 2 && !stopped) stopped = a.stop();
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));
    assert.deepEqual(await stopped, { code: 0, signal: null }, a.output());
    assert.ok(created.length >= CHANGES * 0.95, `${created.length} of ${CHANGES} creates acknowledged`);

    const start = Date.now();
    const delivered = () => new Set(receiver.at('/tariffs').map((r) => JSON.parse(r.body)[0].Id as number));
    while (created.some((id) => !delivered().has(id))) {
      assert.ok(Date.now() - start < 60_000, `${created.filter((id) => !delivered().has(id)).length} changes not delivered within 60 s`);
      await sleep(200);
    }
    // Every receipt of an event more than once was a due retry: its delivery took that many attempts.
    const receipts = new Map<string, number>();
    for (const r of receiver.at('/tariffs'))
      receipts.set(String(r.headers['webhook-id']), (receipts.get(String(r.headers['webhook-id'])) ?? 0) + 1);
    const server = new URL(database.url);
    const connection = await mysql.createConnection({
      host: server.hostname,
      port: Number(server.port || 3306),
      user: decodeURIComponent(server.username),
      database: database.name,
    });
    try {
      const [rows] = await connection.query('SELECT EventId, Attempts, Status FROM webhook_delivery WHERE WebHookId = ?', [
        hook.body.Value.Id,
      ]);
      const attempts = new Map((rows as Array<{ EventId: string; Attempts: number; Status: string }>).map((row) => [row.EventId, row]));
      const twice = [...receipts].filter(([, count]) => count > 1);
      for (const [eventId, count] of twice)
        assert.ok(
          Number(attempts.get(eventId)?.Attempts) >= count,
          `${eventId} arrived ${count} times in ${attempts.get(eventId)?.Attempts} attempts`,
        );
      assert.equal(attempts.size, created.length);
      context.diagnostic(
        `${created.length} changes, ${receiver.at('/tariffs').length} receipts, ${twice.length} events received more than once (all due retries)`,
      );
    } finally {
      await connection.end();
    }
  });
});
