import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createProduct } from './support/billing-fixtures.js';
import { create, createBusiness, createCoworker } from './support/fixtures.js';
import { refused } from './support/record-checks.js';
import { appPerSuite } from './support/test-app.js';
import { startReceiver, type Receiver } from './support/webhook-receiver.js';

// Stock alerts (docs/stock-and-deliveries.md, docs/api.md §13.4): action 1002 ProductLowStock once per crossing.

const PRODUCTS = '/api/billing/products';
const SALES = '/api/billing/coworkerproducts';
const HOOKS = '/api/sys/webhooks';
const LOW_STOCK = 1002;
const WIRE_DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

describe('stock alerts: 1002 ProductLowStock', () => {
  const t = appPerSuite({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  let receiver: Receiver;
  let shops = 0;

  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.close());

  /** A business of its own with a 1002 hook (at `/<name>`), a customer, and a product tracking stock. */
  async function shop(product: Record<string, unknown>) {
    const name = `shop-${++shops}`;
    const business = await createBusiness(t, { Name: name });
    const hook = await create(t, HOOKS, { BusinessId: business, Name: 'low stock', Action: LOW_STOCK, URL: `${receiver.url}/${name}` });
    const customer = await createCoworker(t, business);
    const productId = await createProduct(t, business, { Name: 'Printer paper', TrackStock: true, ...product });
    const sell = (quantity = 1) => t.post(SALES, { CoworkerId: customer, ProductId: productId, Quantity: quantity });
    /** The alerts written for the hook (the outbox writes them in the sale's transaction). */
    const alerts = async () =>
      (await t.get(`${HOOKS}/${hook}/deliveries?size=1000`)).body.Records as Array<{ Action: number; RecordId: number }>;
    const read = async () => (await t.get(`${PRODUCTS}/${productId}`)).body;
    /** A PUT of the whole product with `changes`, as clients send it. */
    const put = async (changes: Record<string, unknown>) => {
      const answer = await t.put(PRODUCTS, { ...(await read()), ...changes });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
    };
    return { name, business, customer, productId, sell, alerts, read, put };
  }

  const sold = async (answer: Promise<{ status: number; body: any }>) => {
    const { status, body } = await answer;
    assert.equal(status, 200, JSON.stringify(body));
  };

  it('a sale taking the stock from above the level to it fires once, carrying the product right after the sale; sales below fire nothing', async () => {
    const s = await shop({ CurrentStock: 5, StockAlertLevel: 3 });
    assert.equal((await s.read()).LowStockAlertedOn, null);
    await sold(s.sell());
    assert.equal((await s.read()).LowStockAlertedOn, null, 'still above the level');
    assert.deepEqual(await s.alerts(), []);
    await sold(s.sell());
    const alerted = await s.read();
    assert.equal(alerted.CurrentStock, 3);
    assert.match(alerted.LowStockAlertedOn, WIRE_DATE_TIME);
    assert.equal(alerted.LowStock, true);
    assert.deepEqual(
      (await s.alerts()).map((a) => [a.Action, a.RecordId]),
      [[LOW_STOCK, s.productId]],
    );
    const [delivery] = await receiver.waitFor(`/${s.name}`, 1);
    const [carried] = JSON.parse(delivery.body);
    assert.equal(carried.Id, s.productId);
    assert.equal(carried.CurrentStock, 3);
    assert.equal(carried.LowStockAlertedOn, alerted.LowStockAlertedOn);

    await sold(s.sell());
    await sold(s.sell(2));
    assert.equal((await s.alerts()).length, 1, 'sales below the level fire nothing');
    assert.equal((await s.read()).LowStockAlertedOn, alerted.LowStockAlertedOn);
  });

  it('a sale jumping from above the level to below it fires; no alert without TrackStock, without a level, or staying above', async () => {
    const jump = await shop({ CurrentStock: 10, StockAlertLevel: 3 });
    await sold(jump.sell(9));
    assert.equal((await jump.alerts()).length, 1);
    for (const product of [
      { TrackStock: false, CurrentStock: 5, StockAlertLevel: 3 },
      { CurrentStock: 5, StockAlertLevel: null },
      { CurrentStock: 50, StockAlertLevel: 3 },
    ]) {
      const s = await shop(product);
      await sold(s.sell(4));
      assert.deepEqual(await s.alerts(), [], JSON.stringify(product));
      assert.equal((await s.read()).LowStockAlertedOn, null, JSON.stringify(product));
    }
  });

  it('a PUT restocking above the level, or raising the level above the stock, re-arms it; a PUT at or below the level fires nothing', async () => {
    // Made at the level: no sale crossed it, and a sale below it is no crossing.
    const s = await shop({ CurrentStock: 2, StockAlertLevel: 3 });
    await sold(s.sell());
    assert.deepEqual(await s.alerts(), []);

    await s.put({ CurrentStock: 5 });
    await sold(s.sell(2));
    assert.equal((await s.alerts()).length, 1, 'the first crossing');
    const first = (await s.read()).LowStockAlertedOn;

    await s.put({ CurrentStock: 1 });
    assert.equal((await s.read()).LowStockAlertedOn, first, 'a PUT at or below the level neither fires nor re-arms');
    await s.put({ StockAlertLevel: 0 });
    assert.equal((await s.read()).LowStockAlertedOn, null, 'a level below the stock re-arms');
    await s.put({ StockAlertLevel: 3 });
    assert.equal((await s.read()).LowStockAlertedOn, null, 'a PUT taking the level above the stock fires nothing');
    await sold(s.sell());
    assert.equal((await s.alerts()).length, 1, 'a sale from 1 to 0, below the level all along');

    await s.put({ CurrentStock: 4 });
    await sold(s.sell());
    assert.equal((await s.alerts()).length, 2, 'the restock re-armed it: the next crossing fires');
  });

  it('20 parallel sales crossing the level fire it exactly once, with the stock the crossing sale left', async () => {
    const s = await shop({ CurrentStock: 20, StockAlertLevel: 10 });
    const answers = await Promise.all(Array.from({ length: 20 }, () => s.sell()));
    assert.deepEqual(
      answers.map((a) => a.status),
      Array(20).fill(200),
      JSON.stringify(answers.find((a) => a.status !== 200)?.body),
    );
    assert.equal((await s.read()).CurrentStock, 0);
    assert.equal((await s.alerts()).length, 1);
    const [delivery] = await receiver.waitFor(`/${s.name}`, 1);
    assert.equal(JSON.parse(delivery.body)[0].CurrentStock, 10);
    const entries = (await t.get(`${PRODUCTS}/${s.productId}/history?size=100`)).body.Records as Array<{
      Action: string;
      Changes: Array<{ Field: string; From: unknown; To: unknown }>;
    }>;
    const history = entries.filter((entry) => entry.Action === 'Update');
    const stockSteps = history.flatMap((entry) => entry.Changes.filter((c) => c.Field === 'CurrentStock').map((c) => [c.From, c.To]));
    assert.equal(stockSteps.length, 20);
    for (const [from, to] of stockSteps) assert.equal(Number(from) - 1, Number(to), 'each sale took one from the stock before it');
    const alertSets = history.flatMap((entry) => entry.Changes.filter((c) => c.Field === 'LowStockAlertedOn'));
    assert.equal(alertSets.length, 1, 'one change set LowStockAlertedOn');
  });

  it('a booking product sale crosses it as any sale does', async () => {
    const s = await shop({ CurrentStock: 4, StockAlertLevel: 3, Name: 'Coffee pods' });
    const type = await create(t, '/api/spaces/resourcetypes', { BusinessId: s.business, Name: 'Rooms' });
    const room = await create(t, '/api/spaces/resources', { BusinessId: s.business, Name: 'Room 1', ResourceTypeId: type, HourlyPrice: 0 });
    const booking = await create(t, '/api/spaces/bookings', {
      ResourceId: room,
      CoworkerId: s.customer,
      FromTime: '2031-05-06T09:00:00Z',
      ToTime: '2031-05-06T10:00:00Z',
    });
    await create(t, '/api/spaces/bookingproducts', { BookingId: booking, ProductId: s.productId, Quantity: 1 });
    assert.equal((await s.alerts()).length, 1);
  });

  it('a refused sale fires nothing and changes nothing', async () => {
    const s = await shop({ CurrentStock: 4, StockAlertLevel: 3 });
    await refused(t, ['product', 'coworkerproduct', 'change_log'], 400, () => s.sell(5));
    assert.equal((await s.read()).LowStockAlertedOn, null);
    assert.deepEqual(await s.alerts(), []);
  });

  it('LowStockAlertedOn is read-only; eWebhookAction lists 1002 ProductLowStock', async () => {
    const s = await shop({ CurrentStock: 5, StockAlertLevel: 3 });
    await s.put({ LowStockAlertedOn: '2030-01-01T00:00:00Z' });
    assert.equal((await s.read()).LowStockAlertedOn, null);
    const actions = (await t.get('/api/utils/enums?name=eWebhookAction')).body as Array<{ Id: number; Name: string }>;
    assert.deepEqual(
      actions.find((a) => a.Id === LOW_STOCK),
      { Id: LOW_STOCK, Name: 'ProductLowStock' },
    );
  });
});
