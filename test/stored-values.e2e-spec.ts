import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { Writable } from 'node:stream';
import { passwordToken } from './support/auth.js';
import { createProduct } from './support/billing-fixtures.js';
import { create, createBusinesses, createCoworker, currencyId } from './support/fixtures.js';
import { createLogger, safeError } from '../src/platform/logging.js';
import { appPerSuite } from './support/test-app.js';

// Every accepted value fits both databases and reads back as written; what does not fit is a 400
// naming the field, and changes nothing (docs/api.md §11.2).

describe('values that must fit both databases', () => {
  const t = appPerSuite();
  let business: number;
  let gbp: number;

  before(async () => {
    [business] = await createBusinesses(t, 'Canal Works');
    gbp = await currencyId(t, 'GBP');
  });

  const product = (overrides: Record<string, unknown>) => ({
    BusinessId: business,
    Name: 'Value',
    SystemProductType: 1,
    Description: 'x',
    DisplayOrder: 0,
    Price: 5,
    CurrencyId: gbp,
    AvailableAs: 3,
    ...overrides,
  });

  /** 400 naming `field`, nothing written. */
  async function refused(path: string, body: Record<string, unknown>, field: string, table: string) {
    const before = await t.rows(table);
    const res = await t.request('POST', path, {
      raw: { contentType: 'application/json', data: typeof body === 'string' ? body : JSON.stringify(body) },
    });
    assert.equal(res.status, 400, `${JSON.stringify(body).slice(0, 120)} -> ${res.status} ${res.text.slice(0, 300)}`);
    assert.equal(res.body.Errors[0].PropertyName, field, res.text);
    assert.deepEqual(await t.rows(table), before);
  }

  /** Stored and read back exactly. */
  async function roundTrip(path: string, body: Record<string, unknown>, field: string, expected = body[field]) {
    const id = await create(t, path, body);
    assert.deepEqual((await t.get(`${path}/${id}`)).body[field], expected);
  }

  it('money: at most four decimals, exponent notation included, and below 10^13; a price is never negative', async () => {
    for (const price of [1e-7, 1.5e-7, 0.00001, 1.23456, 1e13, -1e13, -1e15, 99_999_999_999_999, -9_999_999_999_999.99, -0.0001]) {
      await refused('/api/billing/products', product({ Price: price }), 'Price', 'product');
    }
    // Exponent notation as the client wrote it, in JSON text.
    await refused('/api/billing/products', JSON.stringify(product({})).replace('"Price":5', '"Price":1.5e-7') as never, 'Price', 'product');
    for (const price of [9_999_999_999_999.99, 0.0001, 1e-4, 12.3456, 0])
      await roundTrip('/api/billing/products', product({ Price: price }), 'Price');
  });

  it('integers are 32-bit; date-times fall in the years 1000-9999 in UTC', async () => {
    for (const stock of [2 ** 31, -(2 ** 31), 1e10, 1.5])
      await refused('/api/billing/products', product({ CurrentStock: stock }), 'CurrentStock', 'product');
    for (const stock of [2 ** 31 - 1, -(2 ** 31) + 1])
      await roundTrip('/api/billing/products', product({ CurrentStock: stock }), 'CurrentStock');
    const event = (start: string) => ({ BusinessId: business, Name: 'E', StartDate: start, EndDate: '9999-12-31T23:59:59Z' });
    for (const start of ['9999-12-31T23:30:00-01:00', '1000-01-01T00:30:00+01:00', '0999-12-31T23:59:59Z', '10000-01-01']) {
      await refused('/api/content/calendarevents', event(start), 'StartDate', 'calendarevent');
    }
    await roundTrip('/api/content/calendarevents', event('1000-01-01T00:30:00-01:00'), 'StartDate', '1000-01-01T01:30:00Z');
    await roundTrip('/api/content/calendarevents', event('9999-12-31T23:59:59Z'), 'StartDate');
  });

  it('long text: 65,535 characters of any script; short text: 255 characters', async () => {
    // Characters, whatever their size in UTF-8 (docs/api.md §1; test/hardening-long-text.e2e-spec.ts walks every field).
    await refused('/api/billing/products', product({ Description: '\u00e9'.repeat(65_536) }), 'Description', 'product');
    await refused('/api/billing/products', product({ Description: 'a'.repeat(65_536) }), 'Description', 'product');
    await refused('/api/billing/products', product({ Name: '\u{1F600}'.repeat(256) }), 'Name', 'product');
    await roundTrip('/api/billing/products', product({ Description: 'a'.repeat(65_535) }), 'Description');
    await roundTrip('/api/billing/products', product({ Description: '\u00e9'.repeat(65_535) }), 'Description');
    await roundTrip('/api/billing/products', product({ Name: '\u00e9'.repeat(255) }), 'Name');
  });

  it('results of domain rules fit: the stock a sale leaves and the credit it releases', async () => {
    const customer = await createCoworker(t, business);
    const low = await createProduct(t, business, { TrackStock: true, AllowNegativeStock: true, CurrentStock: -(2 ** 31) + 6 });
    const sales = async () => [
      await t.rows('coworkerproduct'),
      await t.rows('coworkerbookingcredit'),
      (await t.get(`/api/billing/products/${low}`)).body.CurrentStock,
    ];
    const before = await sales();
    const res = await t.post('/api/billing/coworkerproducts', { CoworkerId: customer, ProductId: low, Quantity: 6 });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.Errors[0].PropertyName, 'Quantity');
    assert.deepEqual(await sales(), before);
    assert.equal((await t.post('/api/billing/coworkerproducts', { CoworkerId: customer, ProductId: low, Quantity: 5 })).status, 200);

    const generous = await createProduct(t, business);
    await create(t, '/api/billing/productbookingcredits', { Name: 'Lots', ProductId: generous, Credit: 9_999_999_999_999 });
    const creditsBefore = await t.rows('coworkerbookingcredit');
    const big = await t.post('/api/billing/coworkerproducts', { CoworkerId: customer, ProductId: generous, Quantity: 2 });
    assert.equal(big.status, 400, big.text);
    assert.equal(big.body.Errors[0].PropertyName, 'Quantity');
    assert.deepEqual(await t.rows('coworkerbookingcredit'), creditsBefore);
    assert.equal((await t.post('/api/billing/coworkerproducts', { CoworkerId: customer, ProductId: generous, Quantity: 1 })).status, 200);
  });

  it('emails: trimmed and lower-cased everywhere, at most 255 characters as compared, coworker emails checked', async () => {
    const longest = `${'\u0130'.repeat(120)}@example.com`; // İ lower-cases to two characters
    await refused('/api/sys/users', { Email: longest, FullName: 'I', Password: 'long enough password' }, 'Email', 'user');
    await refused('/api/spaces/coworkers', { BusinessId: business, FullName: 'I', Email: 'not an email' }, 'Email', 'coworker');
    await refused(
      '/api/spaces/coworkers',
      { BusinessId: business, FullName: 'I', Email: longest, CreateUser: true, Password: 'long enough password' },
      'Email',
      'coworker',
    );
    await create(t, '/api/spaces/coworkers', {
      BusinessId: business,
      FullName: 'Spaced',
      Email: '  Spaced.Out@Example.COM ',
      CreateUser: true,
      Password: 'long enough password',
    });
    const [login] = (await t.rows('user')).filter((u) => String(u.EmailKey).startsWith('spaced'));
    assert.deepEqual([login.Email, login.EmailKey], ['Spaced.Out@Example.COM', 'spaced.out@example.com']);
    assert.ok((await passwordToken(t, ' SPACED.out@example.com  ', 'long enough password')).access_token);
    await refused(
      '/api/sys/users',
      { Email: 'spaced.out@example.com ', FullName: 'Twin', Password: 'long enough password' },
      'Email',
      'user',
    );
  });

  it('a failed query is logged with its parameterised SQL and none of its values', async () => {
    const secret = 'hash$do-not-log-me$0123456789';
    const failed: unknown[] = [];
    const q = (n: string) => t.db.id(n);
    const [admin] = await t.rows('user');
    // A duplicate key (the driver quotes the value in its message) and a value too long for its column.
    for (const [sql, parameters] of [
      [`UPDATE ${q('user')} SET ${q('EmailKey')} = ?, ${q('PasswordHash')} = ? WHERE ${q('Id')} <> ?`, [secret, secret, admin.Id]],
      [
        `INSERT INTO ${q('currency')} (${q('Code')}, ${q('Name')}, ${q('Format')}) VALUES (?, ?, ?)`,
        [`${secret}${'x'.repeat(300)}`, secret, secret],
      ],
    ] as const) {
      await t.db.dataSource.manager.query(sql, [...parameters]).then(
        () => undefined,
        (error: unknown) => failed.push(error),
      );
    }
    assert.ok(failed.length >= 1);
    const lines: string[] = [];
    const logger = createLogger(
      { LOG_LEVEL: 'error' },
      new Writable({
        write: (chunk: Buffer, _encoding, done) => {
          lines.push(chunk.toString());
          done();
        },
      }),
    );
    for (const error of failed) logger.error({ err: error }, 'request failed');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(lines.length, failed.length);
    for (const line of lines) {
      assert.doesNotMatch(line, /do-not-log-me/);
      assert.match(line, /"query":"(UPDATE|INSERT)/);
    }
    assert.doesNotMatch(
      JSON.stringify(
        safeError(Object.assign(new Error("Duplicate entry 'x@y.z' for key 'UQ_user_EmailKey'"), { sqlMessage: '', errno: 1062 })),
      ),
      /x@y\.z/,
    );
  });
});
