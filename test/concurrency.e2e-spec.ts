import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createProduct } from './support/billing-fixtures.js';
import { createEvent } from './support/content-fixtures.js';
import { create, createBusiness, createBusinesses, createCoworker, createTariff, currencyId } from './support/fixtures.js';
import { tableRows } from './support/record-checks.js';
import { Product } from '../src/billing/products/product.entity.js';
import { isTransientConflict } from '../src/persistence/database-errors.js';
import { appPerSuite, type HttpResponse } from './support/test-app.js';

// Any mix of parallel valid writes is answered 200 or a contract 400, never a 5xx; afterwards the
// invariants hold (lists as one of the writers left them, stock, gapless invoice numbers, places).

const PARALLEL = 50;

/** Statuses of the answers, with the body of any 5xx for the failure message. */
function noServerErrors(answers: HttpResponse[], allowed: number[] = [200]): void {
  const bad = answers.filter((answer) => !allowed.includes(answer.status));
  assert.deepEqual(
    bad.map((answer) => `${answer.status} ${answer.text}`),
    [],
  );
}

describe('concurrent writes', () => {
  const t = appPerSuite();
  let business: number;
  let tariffs: number[];

  before(async () => {
    [business] = await createBusinesses(t, 'Canal Works');
    tariffs = [];
    for (let i = 0; i < 6; i++) tariffs.push(await createTariff(t, business, { Name: `Tariff ${i}` }));
  });

  const some = (i: number) => tariffs.filter((_, j) => (i >> j) & 1 || j === i % tariffs.length);

  it('parallel creates of products with Tariffs: all 200, each with its own list', async () => {
    const gbp = await currencyId(t, 'GBP');
    const bodies = Array.from({ length: PARALLEL }, (_, i) => ({
      BusinessId: business,
      Name: `Parallel ${i}`,
      SystemProductType: 1,
      Description: 'x',
      DisplayOrder: 0,
      Price: 1,
      CurrencyId: gbp,
      AvailableAs: 3,
      Tariffs: some(i),
    }));
    const answers = await Promise.all(bodies.map((body) => t.post('/api/billing/products', body)));
    noServerErrors(answers);
    for (const [i, answer] of answers.entries()) {
      const product = (await t.get(`/api/billing/products/${answer.body.Value.Id}`)).body;
      assert.deepEqual(
        product.Tariffs,
        [...bodies[i].Tariffs].sort((a, b) => a - b),
      );
    }
  });

  it("parallel updates of one product's Tariffs: all 200, the list is one of those sent", async () => {
    const id = await createProduct(t, business, { Tariffs: [tariffs[0]] });
    const product = (await t.get(`/api/billing/products/${id}`)).body;
    const lists = Array.from({ length: PARALLEL }, (_, i) => some(i));
    const answers = await Promise.all(
      lists.map((Tariffs, i) =>
        i % 2 ? t.put('/api/billing/products', { ...product, Tariffs }) : t.put(`/api/billing/products/${id}`, { ...product, Tariffs }),
      ),
    );
    noServerErrors(answers);
    const stored = (await t.get(`/api/billing/products/${id}`)).body.Tariffs;
    assert.ok(
      lists.some((list) => JSON.stringify(list) === JSON.stringify(stored)),
      JSON.stringify(stored),
    );
    const rows = (await tableRows(t, 'product_tariff')).filter((row) => Number(row.ProductId) === id);
    assert.equal(rows.length, stored.length);
  });

  it('parallel user creates and updates with Businesses: all 200', async () => {
    const businesses = [business, await createBusiness(t, { Name: 'Second' }), await createBusiness(t, { Name: 'Third' })];
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.post('/api/sys/users', {
          Email: `parallel${i}@example.com`,
          FullName: `User ${i}`,
          Password: 'a long password here',
          Roles: ['Product-List'],
          Businesses: businesses.filter((_, j) => j <= i % 3),
        }),
      ),
    );
    noServerErrors(answers);
    const id = answers[0].body.Value.Id;
    const updates = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.put(`/api/sys/users/${id}`, {
          Email: 'parallel0@example.com',
          FullName: 'User 0',
          Roles: ['Product-List'],
          Businesses: businesses.filter((_, j) => j !== i % 3),
        }),
      ),
    );
    noServerErrors(updates);
    const rows = (await tableRows(t, 'user_business')).filter((row) => Number(row.UserId) === id);
    assert.equal(rows.length, 2);
  });

  it('parallel sales, product updates and invoices: 200 or a refusal; stock and numbers hold', async () => {
    const customer = await createCoworker(t, business);
    const product = await createProduct(t, business, { Name: 'Locker', TrackStock: true, CurrentStock: 30, Tariffs: [tariffs[1]] });
    await create(t, '/api/billing/productbookingcredits', { ProductId: product, Credit: 2, Name: 'Hours' }).catch(() => undefined);
    const stored = (await t.get(`/api/billing/products/${product}`)).body;
    const gbp = await currencyId(t, 'GBP');
    const work: Array<Promise<HttpResponse>> = [];
    for (let i = 0; i < 40; i++) {
      work.push(t.post('/api/billing/coworkerproducts', { CoworkerId: customer, ProductId: product, Quantity: 1 }));
      if (i % 4 === 0) work.push(t.put('/api/billing/products', { ...stored, CurrentStock: undefined, Tariffs: some(i) }));
      if (i % 2 === 0)
        work.push(
          t.post('/api/billing/coworkerinvoices', { BusinessId: business, CoworkerId: customer, CurrencyId: gbp, TotalAmount: 10 }),
        );
    }
    const answers = await Promise.all(work);
    noServerErrors(answers, [200, 400]);
    const sold = (await t.get(`/api/billing/coworkerproducts?size=1000&CoworkerProduct_Coworker=${customer}`)).body.Records.length;
    const stock = (await t.get(`/api/billing/products/${product}`)).body.CurrentStock;
    assert.equal(stock, 30 - sold);
    assert.ok(sold <= 30);
    const numbers = (await t.get('/api/billing/coworkerinvoices?size=1000')).body.Records.map((r: { InvoiceNumber: string }) =>
      Number(r.InvoiceNumber),
    ).sort((a: number, b: number) => a - b);
    assert.deepEqual(
      numbers,
      numbers.map((_: number, i: number) => i + 1),
    );
  });

  // What keeps guarded writes in turn on a Galera cluster (docs/architecture.md §7): a second record of a
  // row's turn is refused, and on MySQL it is a conflict the transaction runs again for. On one server or
  // SQLite the row lock keeps the turns, so a sale takes none.
  it('a row turn is taken once: a second record of it is a conflict to run again; one server takes none', async () => {
    const product = await createProduct(t, business, { Name: 'Turned', TrackStock: true, CurrentStock: 5 });
    const before = await tableRows(t, 'row_turn');
    const sale = await t.post('/api/billing/coworkerproducts', { CoworkerId: await createCoworker(t, business), ProductId: product });
    assert.equal(sale.status, 200, sale.text);
    assert.deepEqual(await tableRows(t, 'row_turn'), before, 'no turn taken off Galera');
    await t.db.transaction((tx) => t.db.recordTurn(tx, Product, product, 'Version'));
    const second = await t.db
      .transaction((tx) => t.db.recordTurn(tx, Product, product, 'Version'))
      .then(
        () => null,
        (error: unknown) => error,
      );
    assert.ok(second, 'the same turn twice is refused');
    if (t.db.isMySql) assert.equal(isTransientConflict(second), true, String(second));
    const turns = (await tableRows(t, 'row_turn')).filter((row) => Number(row.RowId) === product);
    assert.deepEqual(
      turns.map((row) => [row.TableName, Number(row.Turn)]),
      [['product', 2]],
    );
  });

  it('parallel attendee sign-ups never exceed the allocation', async () => {
    const event = await createEvent(t, business, { Allocation: 10 });
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        t.post('/api/content/eventattendees', { CalendarEventId: event, FullName: `Guest ${i}`, Email: `guest${i}@example.com` }),
      ),
    );
    noServerErrors(answers, [200, 400]);
    assert.equal(answers.filter((answer) => answer.status === 200).length, 10);
  });
});

describe('the first writes after start, more at once than the pool has connections', () => {
  // Each create holds its transaction's connection while it writes its change-log entry; nothing it
  // does then may wait for another pooled connection, or a burst larger than the pool starves it
  // (the database's RETURNING support, learnt on the first change that may fire webhooks, was once
  // asked on a pooled connection: every create of the burst hung until the request deadline).
  const t = appPerSuite({ DATABASE_POOL_SIZE: '2', REQUEST_TIMEOUT_MS: '8000' });
  let business: number;
  let gbp: number;

  before(async () => {
    [business] = await createBusinesses(t, 'Burst Hall');
    gbp = await currencyId(t, 'GBP');
  });

  it('parallel creates of products right after start: all 200', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.post('/api/billing/products', {
          BusinessId: business,
          Name: `Burst ${i}`,
          SystemProductType: 1,
          Description: 'x',
          DisplayOrder: 0,
          Price: 1,
          CurrencyId: gbp,
          AvailableAs: 3,
        }),
      ),
    );
    noServerErrors(answers);
    assert.equal((await t.get(`/api/billing/products?Product_Business=${business}`)).body.TotalItems, 20);
  });
});
