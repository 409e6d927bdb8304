import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import mysql from 'mysql2/promise';
import { RequestTimeoutError } from '../src/http/http-exception.filter.js';
import { WriteScope } from '../src/persistence/write-scope.js';
import { bearer, createUser, passwordToken, requestToken } from './support/auth.js';
import { createProduct } from './support/billing-fixtures.js';
import { createAttendee, createEvent } from './support/content-fixtures.js';
import { createBusiness, createCoworker, createTariff, currencyId } from './support/fixtures.js';
import { tableRows } from './support/record-checks.js';
import { appPerSuite, basicAuth, type HttpResponse, onMySql } from './support/test-app.js';

const PRODUCTS = '/api/billing/products';

describe('Idempotency-Key on POST', () => {
  const t = appPerSuite();
  let business: number;
  let gbp: number;
  let seq = 0;
  const key = () => `key-${++seq}-${Date.now()}`;
  const product = (overrides: Record<string, unknown> = {}) => ({
    BusinessId: business,
    Name: 'Coffee',
    SystemProductType: 3,
    Description: 'A cup',
    DisplayOrder: 0,
    Price: 2.5,
    CurrencyId: gbp,
    AvailableAs: 3,
    ...overrides,
  });
  const post = (path: string, body: unknown, idempotencyKey: string, auth?: string) =>
    t.request('POST', path, { body, headers: { 'Idempotency-Key': idempotencyKey }, auth });
  const count = async (table: string) => (await tableRows(t, table)).length;

  before(async () => {
    gbp = await currencyId(t, 'GBP');
    business = await createBusiness(t);
  });

  it('a retry with the same key and body is answered byte for byte, marked replayed, and writes nothing', async () => {
    const k = key();
    const first = await post(PRODUCTS, product(), k);
    assert.equal(first.status, 200, first.text);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    const before = await count('product');
    // The same JSON with the keys in another order and other whitespace.
    const again = await t.request('POST', PRODUCTS, {
      raw: { contentType: 'application/json', data: JSON.stringify(Object.fromEntries(Object.entries(product()).reverse()), null, 2) },
      headers: { 'Idempotency-Key': k },
    });
    assert.equal(again.status, 200);
    assert.equal(again.text, first.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.headers.get('etag'), first.headers.get('etag'));
    assert.equal(again.headers.get('content-type'), first.headers.get('content-type'));
    assert.equal(await count('product'), before);
  });

  it('the same key with another body: 422 envelope, nothing written', async () => {
    const k = key();
    assert.equal((await post(PRODUCTS, product({ Name: 'Tea' }), k)).status, 200);
    const before = await count('product');
    const res = await post(PRODUCTS, product({ Name: 'Cocoa' }), k);
    assert.equal(res.status, 422);
    assert.equal(res.body.Status, 422);
    assert.equal(res.body.WasSuccessful, false);
    assert.match(res.body.Message, /Idempotency-Key was already used for another request/);
    assert.equal(await count('product'), before);
  });

  it('20 parallel requests with one key: one write; the others 409 with Retry-After: 1, or the replay', async () => {
    // A user's password hash takes real time on a worker thread, so the first request is still in
    // flight when the others arrive.
    const k = key();
    const before = await count('user');
    const body = { Email: 'parallel@example.com', FullName: 'Parallel', Password: 'a long password here', IsAdmin: false };
    const answers = await Promise.all(Array.from({ length: 20 }, () => post('/api/sys/users', body, k)));
    assert.equal(await count('user'), before + 1);
    const fresh = answers.filter((a) => a.status === 200 && a.headers.get('idempotent-replayed') === null);
    assert.equal(fresh.length, 1, answers.map((a) => a.status).join(' '));
    for (const answer of answers) {
      if (answer.status === 409) {
        assert.equal(answer.headers.get('retry-after'), '1');
        assert.equal(answer.body.Status, 409);
        assert.equal(answer.body.WasSuccessful, false);
      } else {
        assert.equal(answer.status, 200, answer.text);
        assert.equal(answer.text, fresh[0].text);
      }
    }
    // On MySQL the requests run side by side, so some find the key in flight. SQLite writes take
    // turns, and the claims queued behind the first request's transaction find it finished: replays.
    if (onMySql)
      assert.ok(
        answers.some((a) => a.status === 409),
        answers.map((a) => `${a.status} ${a.headers.get('idempotent-replayed')}`).join(', '),
      );
    const replay = await post('/api/sys/users', body, k);
    assert.equal(replay.text, fresh[0].text);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
  });

  it("another user's identical key is another key", async () => {
    await createUser(t, { Email: 'second@example.com', Password: 'second password', IsAdmin: true, Active: true });
    const k = key();
    const before = await count('product');
    const mine = await post(PRODUCTS, product({ Name: 'Mine' }), k);
    const theirs = await post(PRODUCTS, product({ Name: 'Mine' }), k, basicAuth('second@example.com', 'second password'));
    assert.equal(mine.status, 200);
    assert.equal(theirs.status, 200);
    assert.equal(theirs.headers.get('idempotent-replayed'), null);
    assert.notEqual(theirs.body.Value.Id, mine.body.Value.Id);
    assert.equal(await count('product'), before + 2);
  });

  it('the key is scoped to the path too, and a key that is not 1-255 printable ASCII is a 400 naming it', async () => {
    const k = key();
    assert.equal((await post(PRODUCTS, product(), k)).status, 200);
    const tariff = await post('/api/billing/tariffs', { BusinessId: business, Name: 'Desk', Price: 1, CurrencyId: gbp }, k);
    assert.equal(tariff.status, 200);
    assert.equal(tariff.headers.get('idempotent-replayed'), null);
    const before = await count('product');
    for (const bad of ['', 'x'.repeat(256), 'caf\u00e9', 'tab\there']) {
      const res = await post(PRODUCTS, product(), bad);
      assert.equal(res.status, 400, JSON.stringify(bad));
      assert.equal(res.body.Errors[0].PropertyName, 'Idempotency-Key');
    }
    assert.equal((await post(PRODUCTS, product(), 'x'.repeat(255))).status, 200);
    assert.equal(await count('product'), before + 1);
  });

  it('a 4xx answer is kept and replayed; a key whose time ran out is processed afresh', async () => {
    const k = key();
    const refused = await post(PRODUCTS, product({ Name: undefined }), k);
    assert.equal(refused.status, 400);
    const again = await post(PRODUCTS, product({ Name: undefined }), k);
    assert.equal(again.status, 400);
    assert.equal(again.text, refused.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');

    const expiring = key();
    const first = await post(PRODUCTS, product({ Name: 'Expiring' }), expiring);
    await t.db.query(`UPDATE ${t.db.id('idempotency_key')} SET ${t.db.id('ExpiresOn')} = ?`, [t.db.dateParam(new Date(Date.now() - 1000))]);
    const later = await post(PRODUCTS, product({ Name: 'Expiring' }), expiring);
    assert.equal(later.status, 200);
    assert.equal(later.headers.get('idempotent-replayed'), null);
    assert.notEqual(later.body.Value.Id, first.body.Value.Id);
  });

  it('a sale replayed takes no second stock, sale or credit; /api/token ignores the header', async () => {
    const customer = await createCoworker(t, business);
    const stocked = await createProduct(t, business, { Name: 'Locker', TrackStock: true, CurrentStock: 5 });
    const k = key();
    const sale = { CoworkerId: customer, ProductId: stocked, Quantity: 2 };
    const first = await post('/api/billing/coworkerproducts', sale, k);
    assert.equal(first.status, 200, first.text);
    const before = await Promise.all(['coworkerproduct', 'coworkerbookingcredit', 'product'].map((table) => tableRows(t, table)));
    const again = await post('/api/billing/coworkerproducts', sale, k);
    assert.equal(again.text, first.text);
    assert.deepEqual(
      await Promise.all(['coworkerproduct', 'coworkerbookingcredit', 'product'].map((table) => tableRows(t, table))),
      before,
    );
    assert.equal((await t.get(`${PRODUCTS}/${stocked}`)).body.CurrentStock, 3);

    const form = { grant_type: 'password', username: 'second@example.com', password: 'second password' };
    const one = await requestToken(t, form, { 'Idempotency-Key': 'token-key' });
    const two = await requestToken(t, form, { 'Idempotency-Key': 'token-key' });
    assert.equal(one.status, 200);
    assert.equal(two.status, 200);
    assert.notEqual(two.body.refresh_token, one.body.refresh_token);
  });

  it('domain POSTs too: joining a waiting list is replayed, empty body and all', async () => {
    const email = 'waiting@example.com';
    await createCoworker(t, business, { FullName: 'Waiting', Email: email, CreateUser: true, Password: 'customer password 1' });
    const token = (await passwordToken(t, email, 'customer password 1')).access_token;
    const event = await createEvent(t, business, { Allocation: 1, EnableWaitList: true });
    await createAttendee(t, event);
    const k = key();
    const first = await post(`/api/public/events/${event}/joinWaitingList`, {}, k, bearer(token));
    assert.equal(first.status, 200, first.text);
    const again = await post(`/api/public/events/${event}/joinWaitingList`, {}, k, bearer(token));
    assert.equal(again.status, 200, again.text);
    assert.equal(again.text, first.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    const fresh = await post(`/api/public/events/${event}/joinWaitingList`, {}, key(), bearer(token));
    assert.equal(fresh.status, 400, 'without the key it is a second join, refused');
  });
});

/** The answer deadline (REQUEST_TIMEOUT_MS) ends the work: a 503 means nothing was written. */
describe('a write past the answer deadline', () => {
  const TIMEOUT = 800;
  const t = appPerSuite({ REQUEST_TIMEOUT_MS: String(TIMEOUT) });
  let business: number;
  let tariff: number;
  let gbp: number;

  before(async () => {
    gbp = await currencyId(t, 'GBP');
    business = await createBusiness(t);
    tariff = await createTariff(t, business);
  });

  /** Holds what a write to `business` needs past the deadline: a row lock on MySQL, the write turn on SQLite. */
  async function holdingBusiness<T>(during: () => Promise<T>): Promise<T> {
    if (!onMySql) {
      let release!: () => void;
      const held = t.db.transaction(() => new Promise<void>((resolve) => (release = resolve)));
      try {
        return await during();
      } finally {
        release();
        await held;
      }
    }
    const connection = await mysql.createConnection(
      String((t.db.dataSource.options as { url: string }).url).replace(/^mariadb:/, 'mysql:'),
    );
    try {
      await connection.query('START TRANSACTION');
      await connection.query('SELECT * FROM `business` WHERE `Id` = ? FOR UPDATE', [business]);
      return await during();
    } finally {
      await connection.query('ROLLBACK');
      await connection.end();
    }
  }

  it('a create waiting on a lock past the deadline gets 503, and nothing is written after the lock goes', async () => {
    const body = (name: string, extra: Record<string, unknown> = {}) => ({
      BusinessId: business,
      Name: name,
      SystemProductType: 3,
      Description: 'x',
      DisplayOrder: 0,
      Price: 1,
      CurrencyId: gbp,
      AvailableAs: 3,
      ...extra,
    });
    const before = await tableRows(t, 'product');
    const countryId = (await t.get(`/api/sys/businesses/${business}`)).body.CountryId;
    const answers: HttpResponse[] = await holdingBusiness(async () => {
      const started = Date.now();
      const results = await Promise.all([
        t.post(PRODUCTS, body('Lone insert')),
        t.post(PRODUCTS, body('With a list', { Tariffs: [tariff] })),
        t.request('POST', PRODUCTS, { body: body('With a key'), headers: { 'Idempotency-Key': 'deadline-key' } }),
        t.put('/api/sys/businesses', { Id: business, Name: 'Renamed', CurrencyId: gbp, CountryId: countryId }),
      ]);
      assert.ok(Date.now() - started < TIMEOUT * 3, 'answered soon after the deadline');
      await sleep(300);
      return results;
    });
    for (const answer of answers) {
      assert.equal(answer.status, 503, answer.text);
      assert.equal(answer.body.Status, 503);
    }
    await sleep(500);
    assert.deepEqual(await tableRows(t, 'product'), before);
    assert.equal((await t.get(`/api/sys/businesses/${business}`)).body.Name, 'Canal Works');
    // The 503 was not kept for the key: the retry is processed afresh.
    const retry = await t.request('POST', PRODUCTS, { body: body('With a key'), headers: { 'Idempotency-Key': 'deadline-key' } });
    assert.equal(retry.status, 200, retry.text);
    assert.equal(retry.headers.get('idempotent-replayed'), null);
    assert.equal((await tableRows(t, 'product')).length, before.length + 1);
  });

  it('work whose deadline passes before its COMMIT rolls back (a hook that awaited too long)', async () => {
    const scope = new WriteScope();
    const { db } = t;
    const rename = `UPDATE ${db.id('business')} SET ${db.id('Name')} = ? WHERE ${db.id('Id')} = ?`;
    let lateThread: number | undefined;
    const late = db.transaction(async (tx) => {
      await db.query(rename, ['Renamed too late', business], tx);
      if (onMySql) lateThread = Number((await db.query<{ id: unknown }>('SELECT CONNECTION_ID() AS id', [], tx))[0].id);
      assert.equal(scope.expire(), true, 'the work in flight answers for itself');
      return 'done';
    }, scope);
    await assert.rejects(late, RequestTimeoutError);
    assert.equal(scope.commits, 0);
    const read = await t.get(`/api/sys/businesses/${business}`);
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.Name, 'Canal Works');
    if (onMySql) {
      // The KILL QUERY may land after the ROLLBACK: the killed connection is closed, never handed to
      // another request (whose statement the late KILL would stop).
      const threads = await Promise.all(Array.from({ length: 4 }, () => db.query<{ id: unknown }>('SELECT CONNECTION_ID() AS id', [])));
      assert.ok(lateThread! > 0);
      assert.ok(!threads.some(([row]) => Number(row.id) === lateThread), 'the interrupted connection is not reused');
      await sleep(200);
      const alive = await db.query('SELECT ID FROM information_schema.PROCESSLIST WHERE ID = ?', [lateThread]);
      assert.deepEqual(alive, [], 'the interrupted connection is closed');
    }
    // The database is free again: the next write commits.
    await db.transaction((tx) => db.query(rename, ['Canal Works', business], tx), new WriteScope());
  });
});
