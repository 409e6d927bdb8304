import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createUser } from './support/auth.js';
import { createProduct } from './support/billing-fixtures.js';
import { create, createBusinesses, createCoworker } from './support/fixtures.js';
import { assertFields, createAndReadBack, errorNames, putBackChangesNothing, refused } from './support/record-checks.js';
import { appPerSuite, basicAuth } from './support/test-app.js';
import { startReceiver, type Receiver } from './support/webhook-receiver.js';

// Deliveries (docs/stock-and-deliveries.md, docs/api.md §13.5, §13.7).

const DELIVERIES = '/api/spaces/coworkerdeliveries';
const SALES = '/api/billing/coworkerproducts';
const HOOKS = '/api/sys/webhooks';
const [DELIVERY_CREATED, DELIVERY_ASSIGNED] = [52, 53];
/**
 * Every table a delivery or a sale may change: a refused one leaves each as it was. (No change-log entry:
 * no hook delivery either. The delivery worker updates webhook_delivery on its own meanwhile.)
 */
const TABLES = ['coworkerdelivery', 'coworkerproduct', 'product', 'change_log'];
const WIRE_DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
const PASSWORD = 'correct horse battery';

describe('deliveries: /api/spaces/coworkerdeliveries', () => {
  const t = appPerSuite({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  let receiver: Receiver;
  let business: number;
  let otherBusiness: number;
  let customer: number;
  let hooks: { created: number; assigned: number };

  before(async () => {
    receiver = await startReceiver();
    [business, otherBusiness] = await createBusinesses(t, 'Canal Works', 'Harbour Hub');
    customer = await createCoworker(t, business, { FullName: 'Ada Lovelace' });
    hooks = {
      created: await create(t, HOOKS, { BusinessId: business, Name: 'created', Action: DELIVERY_CREATED, URL: `${receiver.url}/created` }),
      assigned: await create(t, HOOKS, {
        BusinessId: business,
        Name: 'assigned',
        Action: DELIVERY_ASSIGNED,
        URL: `${receiver.url}/assigned`,
      }),
    };
  });
  after(() => receiver.close());

  const read = async (id: number) => (await t.get(`${DELIVERIES}/${id}`)).body;
  const delivery = (overrides: Record<string, unknown> = {}) =>
    create(t, DELIVERIES, { BusinessId: business, Name: 'Parcel', DeliveryType: 2, ...overrides });
  /** The delivery ids each hook was written a delivery for (the outbox writes them in the change's transaction). */
  const hooked = async (hook: number) =>
    ((await t.get(`${HOOKS}/${hook}/deliveries?size=1000`)).body.Records as Array<{ RecordId: number }>).map((d) => d.RecordId);
  const collect = (ids: number[], auth?: string) =>
    t.post(`${DELIVERIES}/runcommand`, { Key: 'DELIVERY_COLLECT', Ids: ids }, auth ? { auth } : {});
  const deliveriesOfSale = async (uniqueId: string) =>
    ((await t.get(`${DELIVERIES}?size=1000`)).body.Records as any[]).filter((d) => d.CoworkerProductUniqueId === uniqueId);

  describe('the record', () => {
    it('reads back with every field, CoworkerFullName and a null CoworkerProductUniqueId; flags false unless given; a PUT of what was read changes nothing', async () => {
      const full = {
        BusinessId: business,
        Name: 'Letter from the bank',
        DeliveryType: 1,
        CoworkerId: customer,
        Location: 'Shelf B',
        ReceivedBy: 'Front desk',
        Notes: 'Registered',
        RequiresSignature: true,
        Signed: true,
        Collected: false,
        CollectedOn: null,
        SystemId: 'd-1',
      };
      const record = await createAndReadBack(t, DELIVERIES, 'CoworkerDelivery', full);
      assertFields(record, { CoworkerFullName: 'Ada Lovelace', CoworkerProductUniqueId: null, ToStringText: 'Letter from the bank' });
      const bare = await read(await delivery());
      assertFields(bare, {
        CoworkerId: null,
        CoworkerFullName: null,
        Location: null,
        RequiresSignature: false,
        Signed: false,
        Collected: false,
        CollectedOn: null,
      });
      await putBackChangesNothing(t, DELIVERIES, record.Id);
    });

    it('400 naming the field, nothing stored: required fields, DeliveryType outside 1–5, a customer of another business', async () => {
      const stranger = await createCoworker(t, otherBusiness);
      assert.deepEqual(errorNames((await refused(t, TABLES, 400, () => t.post(DELIVERIES, {}))).body), [
        'BusinessId',
        'DeliveryType',
        'Name',
      ]);
      for (const [change, field] of [
        [{ DeliveryType: 0 }, 'DeliveryType'],
        [{ DeliveryType: 6 }, 'DeliveryType'],
        [{ DeliveryType: 2.5 }, 'DeliveryType'],
        [{ CoworkerId: stranger }, 'CoworkerId'],
      ] as const) {
        const body = { BusinessId: business, Name: 'X', DeliveryType: 5, ...change };
        assert.deepEqual(errorNames((await refused(t, TABLES, 400, () => t.post(DELIVERIES, body))).body), [field], JSON.stringify(change));
      }
      const id = await delivery();
      assert.deepEqual(errorNames((await refused(t, TABLES, 400, () => t.put(`${DELIVERIES}/${id}`, { DeliveryType: 9 }))).body), [
        'DeliveryType',
      ]);
    });

    it('filters by CoworkerDelivery_Collected and CoworkerDelivery_Coworker; eDeliveryType is listed', async () => {
      const who = await createCoworker(t, business, { FullName: 'Filtered' });
      const waiting = await delivery({ CoworkerId: who });
      const collected = await delivery({ CoworkerId: who, Collected: true });
      const ids = async (query: string) =>
        ((await t.get(`${DELIVERIES}?CoworkerDelivery_Coworker=${who}&${query}`)).body.Records as any[]).map((d) => d.Id);
      assert.deepEqual(await ids('size=100'), [waiting, collected]);
      assert.deepEqual(await ids('CoworkerDelivery_Collected=false'), [waiting]);
      assert.deepEqual(await ids('CoworkerDelivery_Collected=true'), [collected]);
      const types = (await t.get('/api/utils/enums?name=eDeliveryType')).body;
      assert.deepEqual(types, [
        { Id: 1, Name: 'Mail' },
        { Id: 2, Name: 'Parcel' },
        { Id: 3, Name: 'Check' },
        { Id: 4, Name: 'Publicity' },
        { Id: 5, Name: 'Other' },
      ]);
    });

    it('scoped by BusinessId with the CoworkerDelivery roles: another business is 401, DELIVERY_COLLECT needs CoworkerDelivery-Edit', async () => {
      const email = 'desk@canal.example';
      await createUser(t, {
        Email: email,
        Password: PASSWORD,
        Businesses: [business],
        Roles: ['CoworkerDelivery-List', 'CoworkerDelivery-Read', 'CoworkerDelivery-Create'],
      });
      const auth = basicAuth(email, PASSWORD);
      const ours = await delivery();
      const theirs = await create(t, DELIVERIES, { BusinessId: otherBusiness, Name: 'Theirs', DeliveryType: 5 });
      assert.equal((await t.get(`${DELIVERIES}/${ours}`, { auth })).status, 200);
      assert.equal((await t.get(`${DELIVERIES}/${theirs}`, { auth })).status, 401);
      await refused(t, TABLES, 401, () => t.post(DELIVERIES, { BusinessId: otherBusiness, Name: 'X', DeliveryType: 5 }, { auth }));
      await refused(t, TABLES, 401, () => collect([ours], auth));
    });
  });

  describe('DELIVERY_COLLECT', () => {
    it('sets Collected and CollectedOn now; listed only for one not collected; refused for all ids when one is collected, nothing done', async () => {
      const [first, second] = [await delivery(), await delivery()];
      assert.deepEqual(
        ((await t.get(`${DELIVERIES}/commands?id=${first}`)).body as any[]).map((c) => c.Key),
        ['DELIVERY_COLLECT'],
      );
      const done = await collect([first]);
      assertFields(done.body, { WasSuccessful: true, Message: 'The command was run correctly.' });
      const collected = await read(first);
      assert.equal(collected.Collected, true);
      assert.match(collected.CollectedOn, WIRE_DATE_TIME);
      assert.ok(Math.abs(Date.parse(collected.CollectedOn) - Date.now()) < 60_000);
      assert.deepEqual((await t.get(`${DELIVERIES}/commands?id=${first}`)).body, []);
      const again = await refused(t, TABLES, 200, () => collect([second, first]));
      assertFields(again.body, { WasSuccessful: false, Status: 400 });
      assert.match(again.body.Message, new RegExp(`CoworkerDelivery ${first} has been collected already`));
    });

    it('parallel DELIVERY_COLLECTs of one delivery: exactly one succeeds', async () => {
      const id = await delivery();
      const answers = await Promise.all(Array.from({ length: 12 }, () => collect([id])));
      assert.deepEqual(
        answers.map((a) => a.status),
        Array(12).fill(200),
      );
      assert.equal(answers.filter((a) => a.body.WasSuccessful).length, 1);
      const history = (await t.get(`${DELIVERIES}/${id}/history`)).body.Records as any[];
      assert.equal(history.filter((entry) => entry.Action === 'Update').length, 1);
    });
  });

  describe('hooks 52 DeliveryCreated and 53 DeliveryAssigned', () => {
    it('52 on every create; 53 when it gets a customer it did not have, on create or by a change of CoworkerId', async () => {
      const other = await createCoworker(t, business);
      const nobody = await delivery();
      const someone = await delivery({ CoworkerId: customer });
      assert.ok((await hooked(hooks.created)).includes(nobody) && (await hooked(hooks.created)).includes(someone));
      assert.ok((await hooked(hooks.assigned)).includes(someone));
      assert.ok(!(await hooked(hooks.assigned)).includes(nobody));
      const count = async () => (await hooked(hooks.assigned)).filter((id) => id === nobody).length;
      await t.put(`${DELIVERIES}/${nobody}`, { Notes: 'still nobody' });
      assert.equal(await count(), 0);
      await t.put(`${DELIVERIES}/${nobody}`, { CoworkerId: customer });
      assert.equal(await count(), 1);
      await t.put(`${DELIVERIES}/${nobody}`, { CoworkerId: customer, Location: 'Shelf C' });
      assert.equal(await count(), 1, 'the same customer: not assigned again');
      await t.put(`${DELIVERIES}/${nobody}`, { CoworkerId: other });
      assert.equal(await count(), 2);
      const [arrived] = (await receiver.waitFor('/assigned', 1)).map((r) => JSON.parse(r.body)[0]);
      assert.equal(typeof arrived.Id, 'number');
    });
  });

  describe('made by sales of products with CreateDeliveryWhenPurchased', () => {
    let product: number;
    before(async () => {
      product = await createProduct(t, business, {
        Name: 'Welcome pack',
        CreateDeliveryWhenPurchased: true,
        TrackStock: true,
        CurrentStock: 100,
      });
    });
    const sell = (body: Record<string, unknown> = {}, headers?: Record<string, string>) =>
      t.request('POST', SALES, { body: { CoworkerId: customer, ProductId: product, Quantity: 3, ...body }, headers });
    const saleOf = async (answer: { status: number; body: any }) => {
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return (await t.get(`${SALES}/${answer.body.Value.Id}`)).body;
    };

    it("one delivery per sale, whatever its Quantity: the product's business and name, the customer, Other, the sale's UniqueId; 52 and 53 fire", async () => {
      const sale = await saleOf(await sell());
      const [made] = await deliveriesOfSale(sale.UniqueId);
      assert.equal((await deliveriesOfSale(sale.UniqueId)).length, 1);
      assertFields(made, {
        BusinessId: business,
        Name: 'Welcome pack',
        DeliveryType: 5,
        CoworkerId: customer,
        CoworkerFullName: 'Ada Lovelace',
        Location: null,
        Collected: false,
        CollectedOn: null,
      });
      assert.ok((await hooked(hooks.created)).includes(made.Id));
      assert.ok((await hooked(hooks.assigned)).includes(made.Id));
      const plain = await saleOf(await t.post(SALES, { CoworkerId: customer, ProductId: await createProduct(t, business) }));
      assert.deepEqual(await deliveriesOfSale(plain.UniqueId), []);
    });

    it('a refused sale makes none; a replayed one (Idempotency-Key) no second', async () => {
      const short = await createProduct(t, business, {
        Name: 'Last box',
        CreateDeliveryWhenPurchased: true,
        TrackStock: true,
        CurrentStock: 1,
      });
      await refused(t, TABLES, 400, () => t.post(SALES, { CoworkerId: customer, ProductId: short, Quantity: 2 }));
      const headers = { 'Idempotency-Key': 'welcome-pack-sale-1' };
      const first = await sell({}, headers);
      const before = await t.rows('coworkerdelivery');
      const replayed = await sell({}, headers);
      assert.equal(replayed.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(replayed.body, first.body);
      assert.deepEqual(await t.rows('coworkerdelivery'), before);
      assert.equal((await deliveriesOfSale((await saleOf(first)).UniqueId)).length, 1);
    });

    it("a booking product's sale makes one as well", async () => {
      const type = await create(t, '/api/spaces/resourcetypes', { BusinessId: business, Name: 'Rooms' });
      const room = await create(t, '/api/spaces/resources', { BusinessId: business, Name: 'Room 1', ResourceTypeId: type, HourlyPrice: 0 });
      const booking = await create(t, '/api/spaces/bookings', {
        ResourceId: room,
        CoworkerId: customer,
        FromTime: '2031-05-06T09:00:00Z',
        ToTime: '2031-05-06T10:00:00Z',
      });
      const item = await create(t, '/api/spaces/bookingproducts', { BookingId: booking, ProductId: product, Quantity: 2 });
      const sale = (await t.get(`${SALES}/${(await t.get(`/api/spaces/bookingproducts/${item}`)).body.CoworkerProductId}`)).body;
      assert.equal((await deliveriesOfSale(sale.UniqueId)).length, 1);
    });

    it('deleting the sale deletes its delivery while not collected; a collected one stays', async () => {
      const waiting = await saleOf(await sell());
      const [uncollected] = await deliveriesOfSale(waiting.UniqueId);
      assert.equal((await t.delete(`${SALES}/${waiting.Id}`)).status, 200);
      assert.equal((await t.get(`${DELIVERIES}/${uncollected.Id}`)).status, 404);

      const picked = await saleOf(await sell());
      const [kept] = await deliveriesOfSale(picked.UniqueId);
      assert.equal((await collect([kept.Id])).body.WasSuccessful, true);
      assert.equal((await t.delete(`${SALES}/${picked.Id}`)).status, 200);
      assertFields(await read(kept.Id), { Collected: true, CoworkerProductUniqueId: picked.UniqueId });
    });
  });
});
