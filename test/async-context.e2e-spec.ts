import assert from 'node:assert/strict';
import { AsyncLocalStorage } from 'node:async_hooks';
import { before, describe, it } from 'node:test';
import { createProduct } from './support/billing-fixtures.js';
import { createBusiness } from './support/fixtures.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, appPerSuite } from './support/test-app.js';

// docs/architecture.md §1.1: no AsyncLocalStorage is entered while requests are served. On Node 22 (still
// supported) one in use turns on async hooks for every promise of the process, which cost a GET by id a
// fifth of its CPU and a create a third on Node 20; Node 24 needs no hooks for it. Every entry into any AsyncLocalStorage (ours or a dependency's) is recorded
// here, with where it came from, while the service answers reads, writes, commands, Basic and a login.
const entered: string[] = [];
for (const method of ['run', 'enterWith'] as const) {
  const prototype = AsyncLocalStorage.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const original = prototype[method];
  prototype[method] = function (this: AsyncLocalStorage<unknown>, ...args: unknown[]) {
    // Who called it: the service's code or a dependency's (not the test runner's own storages).
    const callers = (new Error().stack ?? '').split('\n').slice(2, 5).join(' | ');
    if (/\/dist\/src\/|node_modules\//.test(callers)) entered.push(`${method}: ${callers}`);
    return original.apply(this, args);
  };
}

describe('async context', () => {
  const t = appPerSuite();
  let business: number;
  before(async () => {
    business = await createBusiness(t, { Name: 'Context Works' });
  });

  it('serves reads, writes, commands, Basic and the password grant without entering an AsyncLocalStorage', async () => {
    const product = await createProduct(t, business, { Name: 'Tea' });
    assert.equal((await t.get(`/api/billing/products/${product}`)).status, 200);
    assert.equal((await t.get(`/api/billing/products?Product_Business=${business}`)).status, 200);
    assert.equal((await t.get(`/api/billing/products/${product}/history`)).status, 200);
    const read = await t.get<Record<string, unknown>>(`/api/billing/products/${product}`);
    assert.equal((await t.put(`/api/billing/products/${product}`, { ...read.body, Name: 'Green tea' })).status, 200);
    const keyed = {
      BusinessId: business,
      Name: 'Keyed',
      SystemProductType: 3,
      Description: 'x',
      DisplayOrder: 0,
      Price: 1,
      CurrencyId: read.body.CurrencyId,
      AvailableAs: 3,
    };
    assert.equal(
      (await t.request('POST', '/api/billing/products', { body: keyed, headers: { 'idempotency-key': 'context-test-key' } })).status,
      200,
    );
    assert.equal((await t.get('/api/spaces/coworkers/commands')).status, 200);
    assert.equal((await t.delete(`/api/billing/products/${product}`)).status, 200);
    const token = await t.request('POST', '/api/token', {
      auth: '',
      form: { grant_type: 'password', username: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    assert.equal(token.status, 200);
    assert.deepEqual(entered, []);
  });
});
