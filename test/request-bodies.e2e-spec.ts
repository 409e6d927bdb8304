import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { before, describe, it } from 'node:test';
import { bearer, passwordToken } from './support/auth.js';
import { createProduct } from './support/billing-fixtures.js';
import { createBusinesses, createCoworker, currencyId } from './support/fixtures.js';
import { appPerSuite } from './support/test-app.js';

// Hostile request bodies and headers (docs/api.md §11.2): refused early, in the error envelope,
// without holding up anyone else.

/** A JSON object text with `count` keys (about 850 KB for 100,000). */
const manyKeys = (count: number, extra: Record<string, unknown> = {}) => {
  const body: Record<string, unknown> = { ...extra };
  for (let i = 0; i < count; i++) body[`_${i.toString(36)}`] = 0;
  return JSON.stringify(body);
};
const deep = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

describe('request bodies and headers', () => {
  const t = appPerSuite();
  let business: number;
  let customer: string;

  before(async () => {
    [business] = await createBusinesses(t, 'Canal Works');
    const email = 'body-customer@example.com';
    await createCoworker(t, business, { Email: email, CreateUser: true, Password: 'customer password' });
    customer = bearer((await passwordToken(t, email, 'customer password')).access_token);
  });

  const productFields = async (name: string) => ({
    BusinessId: business,
    Name: name,
    SystemProductType: 1,
    Description: 'A product',
    DisplayOrder: 0,
    Price: 5,
    CurrencyId: await currencyId(t, 'GBP'),
    AvailableAs: 3,
  });
  const send = (path: string, data: string, auth?: string, contentType = 'application/json') =>
    t.request('POST', path, { raw: { contentType, data }, ...(auth ? { auth } : {}) });

  it('refuses 100,000 keys and 5,000 levels with 400 in milliseconds while /health keeps answering', async () => {
    const hostile = [manyKeys(100_000), deep(5000), `${'['.repeat(5000)}${']'.repeat(5000)}`];
    assert.ok(hostile[0].length > 800_000 && hostile[0].length < 1024 * 1024);
    const products = (await t.rows('product')).length;
    let healthiest = 0;
    let slowestHealth = 0;
    let stop = false;
    const health = (async () => {
      while (!stop) {
        const started = performance.now();
        assert.equal((await t.get('/health', { auth: null })).status, 200);
        slowestHealth = Math.max(slowestHealth, performance.now() - started);
        healthiest++;
      }
    })();
    const timings: number[] = [];
    for (const data of hostile) {
      for (const [path, auth] of [
        ['/api/billing/products', undefined],
        ['/api/sys/users/token/refresh', customer],
        ['/api/public/events/1/joinWaitingList', customer],
      ] as const) {
        const started = performance.now();
        const res = await send(path, data, auth);
        timings.push(performance.now() - started);
        assert.equal(res.status, 400, `${path}: ${res.text.slice(0, 200)}`);
        assert.equal(res.body.WasSuccessful, false);
        assert.equal(res.body.Status, 400);
        assert.match(res.body.Message, /nested deeper than 32 levels or holds more than 10000 keys/);
      }
    }
    stop = true;
    await health;
    assert.equal((await t.rows('product')).length, products);
    // Loose bounds for a shared machine: the stall this replaced was about five seconds per request.
    assert.ok(Math.max(...timings) < 1000, `slowest refusal ${Math.max(...timings)} ms`);
    assert.ok(slowestHealth < 1000, `slowest /health ${slowestHealth} ms`);
    assert.ok(healthiest > 0);
  });

  it('takes a body at the limits, and drops thousands of unknown keys cheaply', async () => {
    const fields = await productFields('Limits');
    const started = performance.now();
    const res = await send('/api/billing/products', manyKeys(9_990, fields));
    assert.ok(performance.now() - started < 1000);
    assert.equal(res.status, 200, res.text.slice(0, 300));
    const atDepth = await send('/api/billing/products', JSON.stringify({ ...fields, Unknown: JSON.parse(deep(31)) }));
    assert.equal(atDepth.status, 200, atDepth.text);
    assert.equal((await send('/api/billing/products', JSON.stringify({ ...fields, Unknown: JSON.parse(deep(32)) }))).status, 400);
    assert.equal((await send('/api/billing/products', manyKeys(10_001 - Object.keys(fields).length, fields))).status, 400);
  });

  it('ignores prototype keys at any depth', async () => {
    const fields = await productFields('Proto');
    const data = JSON.stringify(fields).replace('{', '{"__proto__":{"IsAdmin":true},"constructor":{"prototype":{"x":1}},"Tariffs":[],');
    const res = await send('/api/billing/products', data);
    assert.equal(res.status, 200, res.text);
    assert.equal(({} as Record<string, unknown>).IsAdmin, undefined);
  });

  it('answers 415 to a body in another charset than UTF-8, and writes nothing', async () => {
    const products = (await t.rows('product')).length;
    const body = JSON.stringify(await productFields('Caf\u00e9'));
    for (const type of ['application/json; charset=latin1', 'application/json;charset="ISO-8859-1"', 'text/plain; charset=windows-1252']) {
      const res = await send('/api/billing/products', body, undefined, type);
      assert.equal(res.status, 415, type);
      assert.equal(res.body.WasSuccessful, false);
    }
    const token = await t.request('POST', '/api/token', {
      raw: { contentType: 'application/x-www-form-urlencoded; charset=latin1', data: 'grant_type=password&username=a&password=b' },
      auth: null,
    });
    assert.equal(token.status, 415);
    assert.equal((await t.rows('product')).length, products);
    assert.equal((await send('/api/billing/products', body, undefined, 'application/json; charset=UTF-8')).status, 200);
  });

  it('answers headers over the limit with 431 and the error envelope', async () => {
    const url = new URL(t.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`);
      });
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', (error) => (text ? resolve(text) : reject(error)));
    });
    assert.match(answer, /^HTTP\/1\.1 431 /);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    assert.equal(body.Status, 431);
    assert.equal(body.WasSuccessful, false);
    // The product made earlier is still there: nothing else was touched.
    assert.ok(await createProduct(t, business));
  });
});
