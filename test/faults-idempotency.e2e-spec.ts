import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import mysql from 'mysql2/promise';
import { createBusiness, currencyId } from './support/fixtures.js';
import { proxiedMySqlDatabase, type TcpProxy } from './support/tcp-proxy.js';
import { appPerSuite, freshMySqlDatabase, onMySql, startApp, type TestApp } from './support/test-app.js';

// docs/api.md §5.2: an Idempotency-Key never outlives its request's failure, and a stored answer never
// needs more room than both databases give it.

const PRODUCTS = '/api/billing/products';
const keyed = (key: string) => ({ 'Idempotency-Key': key });

describe('stored answers of Idempotency-Keys', () => {
  const t = appPerSuite();
  let business: number;
  let gbp: number;
  before(async () => {
    business = await createBusiness(t);
    gbp = await currencyId(t, 'GBP');
  });

  it('a 400 that echoes a 70,000-character value is stored (short), not a 500, and replayed', async () => {
    const body = { BusinessId: business, Name: 'n'.repeat(70_000), SystemProductType: 3, Price: 1, CurrencyId: gbp, AvailableAs: 3 };
    const products = (await t.rows('product')).length;
    const first = await t.request('POST', PRODUCTS, { body, headers: keyed('long-refusal') });
    assert.equal(first.status, 400, first.text.slice(0, 300));
    const replay = await t.request('POST', PRODUCTS, { body, headers: keyed('long-refusal') });
    assert.equal(replay.status, 400, replay.text.slice(0, 300));
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(replay.body.Status, 400);
    assert.equal(replay.body.WasSuccessful, false);
    assert.equal(typeof replay.body.Message, 'string');
    assert.equal((await t.rows('product')).length, products);
  });

  it('thirty keyed ~1 MB invalid bodies keep only a little each', async () => {
    const big = 'x'.repeat(1_000_000);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        t.request('POST', PRODUCTS, {
          body: { BusinessId: business, Name: big, SystemProductType: 3, Price: 1, CurrencyId: gbp, AvailableAs: 3, DisplayOrder: i },
          headers: keyed(`big-${i}`),
        }),
      ),
    );
    for (const answer of answers) assert.ok([400, 413].includes(answer.status), `${answer.status}`);
    const stored = (await t.rows('idempotency_key')).reduce(
      (sum, row) => sum + String(row.Body ?? '').length + String(row.RequestHash ?? '').length,
      0,
    );
    assert.ok(stored < 30 * 10_000, `stored ${stored} characters for 30 refused keys`);
  });
});

describe(
  'a keyed request cut off by a database failure (MariaDB behind a TCP proxy)',
  { skip: !onMySql && 'runs on MariaDB (TEST_DATABASE=mysql)' },
  () => {
    let database: Awaited<ReturnType<typeof freshMySqlDatabase>>;
    let proxy: TcpProxy;
    let t: TestApp;
    before(async () => {
      let url: string;
      ({ database, proxy, url } = await proxiedMySqlDatabase());
      t = await startApp({ DATABASE_URL: url, REQUEST_TIMEOUT_MS: '4000' });
    });
    after(async () => {
      await t?.close();
      await proxy?.stop();
      await database?.drop();
    });

    it('is processed afresh by a retry once the database is back, not 409 for minutes', async () => {
      const business = await createBusiness(t);
      const gbp = await currencyId(t, 'GBP');
      const body = {
        BusinessId: business,
        Name: 'Cut off',
        SystemProductType: 3,
        Description: 'x',
        DisplayOrder: 0,
        Price: 1,
        CurrencyId: gbp,
        AvailableAs: 3,
      };
      // The business row is locked (not through the proxy): the create claims its key, then waits.
      const direct = await mysql.createConnection(database.url.replace(/^mariadb:/, 'mysql:'));
      await direct.query('START TRANSACTION');
      await direct.query('SELECT * FROM `business` WHERE `Id` = ? FOR UPDATE', [business]);
      const cut = t.request('POST', PRODUCTS, { body, headers: keyed('cut-off') });
      for (;;) {
        if ((await t.rows('idempotency_key')).length > 0) break;
        await sleep(20);
      }
      await sleep(200);
      await proxy.stop();
      const failed = await cut;
      assert.equal(failed.status, 503, failed.text);
      await sleep(500);
      await proxy.start();
      await direct.query('ROLLBACK');
      await direct.end();
      // Once the database is back the key is free again: a retry is processed (within a few seconds).
      let retry = await t.request('POST', PRODUCTS, { body, headers: keyed('cut-off') });
      for (let i = 0; i < 40 && (retry.status === 409 || retry.status === 503); i++) {
        await sleep(250);
        retry = await t.request('POST', PRODUCTS, { body, headers: keyed('cut-off') });
      }
      assert.equal(retry.status, 200, retry.text);
      assert.equal(retry.headers.get('idempotent-replayed'), null);
      assert.equal((await t.rows('product')).filter((p) => p.Name === 'Cut off').length, 1);
    });
  },
);
