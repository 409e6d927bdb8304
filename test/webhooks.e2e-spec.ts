import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { createUser, eventually } from './support/auth.js';
import { createProduct } from './support/billing-fixtures.js';
import { createAttendee, createEvent } from './support/content-fixtures.js';
import { create, createBusiness, createCoworker, createTariff, currencyId } from './support/fixtures.js';
import { basicAuth, startApp, type TestApp } from './support/test-app.js';
import { startReceiver, type Receiver } from './support/webhook-receiver.js';

const HOOKS = '/api/sys/webhooks';
const PASSWORD = 'correct horse battery';
/** Retries come quickly in these tests; three failures in a row deactivate a hook. */
const ENV = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_DELAYS: '0.2,0.2,0.2,0.2,0.2', WEBHOOK_MAX_CONSECUTIVE_FAILURES: '3' };

describe('webhooks', () => {
  let t: TestApp;
  let receiver: Receiver;
  let business: number;
  let otherBusiness: number;
  /** How the receiver answers, by path: a function of the attempt number. */
  const answers = new Map<string, (nth: number) => number | 'hang'>();

  before(async () => {
    t = await startApp(ENV);
    receiver = await startReceiver((path, nth) => answers.get(path)?.(nth) ?? 200);
    business = await createBusiness(t, { Name: 'Canal Works' });
    otherBusiness = await createBusiness(t, { Name: 'Harbour Hub' });
  });
  after(async () => {
    await receiver.close();
    await t.close();
  });

  /** A hook of `business` for `action`, calling the receiver at `/path`. */
  const hook = async (action: number, path: string, overrides: Record<string, unknown> = {}) =>
    create(t, HOOKS, { BusinessId: business, Name: `hook ${path}`, Action: action, URL: `${receiver.url}${path}`, ...overrides });
  const secretOf = async (id: number) => (await t.get(`${HOOKS}/${id}/secret`)).body.Secret as string;
  const hookRecord = async (id: number) => (await t.get(`${HOOKS}/${id}`)).body;
  const only = (records: Array<{ body: string }>) => {
    const body = JSON.parse(records[0].body);
    assert.ok(Array.isArray(body) && body.length === 1, 'the body is an array of one record');
    return body[0];
  };

  describe('the WebHook record', () => {
    it('creates with a generated secret that no answer, list or history shows; GET /{id}/secret gives it', async () => {
      const id = await hook(3, '/record');
      const record = await hookRecord(id);
      assert.equal(record.Active, true);
      assert.equal(record.ErrorCount, 0);
      assert.equal(record.LastError, null);
      assert.equal(record.LastTrigger, null);
      assert.equal('Secret' in record, false);
      const secret = await secretOf(id);
      assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      assert.equal(Buffer.from(secret.slice(6), 'base64').length, 32);
      const list = await t.get(`${HOOKS}?size=1000`);
      const history = await t.get(`${HOOKS}/${id}/history`);
      assert.ok(!JSON.stringify(list.body).includes(secret) && !JSON.stringify(history.body).includes(secret));
      assert.equal(
        history.body.Records[0].Changes.some((c: any) => c.Field === 'Secret' && c.From === null && c.To === null),
        false,
        'a generated secret was not given',
      );
      // A given secret replaces it, and is named (never shown) in the history.
      assert.equal((await t.put(`${HOOKS}/${id}`, { Secret: 'a-secret-of-my-own-choosing' })).status, 200);
      assert.equal(await secretOf(id), 'a-secret-of-my-own-choosing');
      const entry = (await t.get(`${HOOKS}/${id}/history`)).body.Records[0];
      assert.deepEqual(entry.Changes, [{ Field: 'Secret', From: null, To: null }]);
    });

    it('a partial PUT /{id} keeps absent fields; Active true resets ErrorCount', async () => {
      const id = await hook(2, '/partial', { Description: 'kept' });
      await t.db.query(
        `UPDATE ${t.db.id('webhook')} SET ${t.db.id('Active')} = 0, ${t.db.id('ErrorCount')} = 7 WHERE ${t.db.id('Id')} = ?`,
        [id],
      );
      const res = await t.put(`${HOOKS}/${id}`, { Active: true });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const record = await hookRecord(id);
      assert.equal(record.Active, true);
      assert.equal(record.ErrorCount, 0);
      assert.equal(record.Name, 'hook /partial');
      assert.equal(record.Description, 'kept');
      assert.equal(record.URL, `${receiver.url}/partial`);
    });

    it('refuses bad URLs, short secrets and unknown actions, naming the field, and writes nothing', async () => {
      const before = await t.rows('webhook');
      const body = { BusinessId: business, Name: 'bad', Action: 3 };
      for (const URL of [
        'ftp://example.com/x',
        '/relative/path',
        'https://user:pass@example.com/',
        'not a url',
        `https://example.com/${'a'.repeat(2048)}`,
      ]) {
        const res = await t.post(HOOKS, { ...body, URL });
        assert.equal(res.status, 400, URL);
        assert.equal(res.body.Errors[0].PropertyName, 'URL');
      }
      const short = await t.post(HOOKS, { ...body, URL: 'https://example.com/', Secret: 'too-short' });
      assert.equal(short.status, 400);
      assert.equal(short.body.Errors[0].PropertyName, 'Secret');
      assert.ok(!JSON.stringify(short.body).includes('too-short'), 'the secret is not echoed');
      for (const Action of [0, 91, 1000, 'x'])
        assert.equal((await t.post(HOOKS, { ...body, URL: 'https://example.com/', Action })).status, 400);
      const missing = await t.post(HOOKS, { URL: 'https://example.com/' });
      assert.deepEqual(missing.body.Errors.map((e: any) => e.PropertyName).sort(), ['Action', 'BusinessId', 'Name']);
      assert.deepEqual(await t.rows('webhook'), before);
    });

    it('GET /api/utils/enums lists the platform enumerations; an unknown name is 404', async () => {
      const actions = (await t.get('/api/utils/enums?name=eWebhookAction')).body;
      assert.deepEqual(actions[0], { Id: 1, Name: 'None' });
      assert.deepEqual(actions[1], { Id: 2, Name: 'CoworkerUpdate' });
      assert.deepEqual(
        actions.find((a: any) => a.Id === 62),
        { Id: 62, Name: 'CoworkerContractCreate' },
      );
      assert.deepEqual(
        actions.find((a: any) => a.Id === 90),
        { Id: 90, Name: 'CoworkerPaymentMethodUpdate' },
      );
      assert.deepEqual(actions.slice(-2), [
        { Id: 1001, Name: 'CalendarEventSpotAvailable' },
        { Id: 1002, Name: 'ProductLowStock' },
      ]);
      assert.equal(actions.length, 92);
      for (const name of [
        'eSystemProductType',
        'eAvailableAs',
        'eRegularPaymentProvider',
        'eExpirationType',
        'eCoworkerType',
        'eDeliveryType',
      ]) {
        const res = await t.get(`/api/utils/enums?name=${name}`);
        assert.equal(res.status, 200, name);
        assert.ok(res.body.length > 1 && res.body.every((v: any) => Number.isInteger(v.Id) && typeof v.Name === 'string'), name);
      }
      assert.deepEqual((await t.get('/api/utils/enums?name=eCoworkerType')).body, [
        { Id: 1, Name: 'Individual' },
        { Id: 2, Name: 'Company' },
      ]);
      assert.equal((await t.get('/api/utils/enums?name=eNothing')).status, 404);
      assert.equal((await t.get('/api/utils/enums?name=eCoworkerType', { auth: null })).status, 401);
    });
  });

  describe('deliveries', () => {
    it('each fired action delivers the record as GET shows it after the change (before it, for a delete), signed both ways', async () => {
      const currency = await currencyId(t, 'GBP');
      const expected = new Map<string, unknown>();
      const paths: string[] = [];
      const on = async (action: number, name: string) => {
        const path = `/action/${action}-${name}`;
        paths.push(path);
        await hook(action, path);
        return path;
      };
      /** Hooks for several actions, registered in order; their paths in the same order. */
      const onEach = async (...actions: Array<[number, string]>) => {
        const hooked: string[] = [];
        for (const [action, name] of actions) hooked.push(await on(action, name));
        return hooked;
      };
      const record = async (path: string, url: string) => expected.set(path, (await t.get(url)).body);
      /** Changes a record as a client does (GET, change, PUT back); `hookPath` delivers it as read after. */
      const updated = async (hookPath: string, url: string, change: Record<string, unknown>) => {
        assert.equal((await t.put(url, { ...(await t.get(url)).body, ...change })).status, 200, url);
        await record(hookPath, url);
      };
      /** Deletes a record; `hookPath` delivers it as read before. */
      const deleted = async (hookPath: string, url: string) => {
        await record(hookPath, url);
        assert.equal((await t.delete(url)).status, 200, url);
      };

      // Coworkers
      const [coworkerCreate, coworkerUpdate, coworkerDelete] = await onEach(
        [3, 'CoworkerCreate'],
        [2, 'CoworkerUpdate'],
        [50, 'CoworkerDelete'],
      );
      const coworker = await createCoworker(t, business, { FullName: 'Hook Customer' });
      await record(coworkerCreate, `/api/spaces/coworkers/${coworker}`);
      await updated(coworkerUpdate, `/api/spaces/coworkers/${coworker}`, { City: 'Leeds' });
      await deleted(coworkerDelete, `/api/spaces/coworkers/${await createCoworker(t, business, { FullName: 'Leaving Customer' })}`);

      // Customer invoices: first, issued, updated, paid, deleted
      const [first, paid, invoiceDelete] = await onEach(
        [15, 'CoworkerInvoiceCreateFirst'],
        [21, 'CoworkerInvoicePaid'],
        [17, 'CoworkerInvoiceDelete'],
      );
      const invoice = await create(t, '/api/billing/coworkerinvoices', {
        BusinessId: business,
        CoworkerId: coworker,
        CurrencyId: currency,
        TotalAmount: 100,
      });
      await record(first, `/api/billing/coworkerinvoices/${invoice}`);
      // Paid by a payment (docs/api.md §10.1): the invoice as it reads once paid.
      await create(t, '/api/billing/coworkerledgerentries', {
        BusinessId: business,
        CoworkerId: coworker,
        CoworkerInvoiceId: invoice,
        Credit: 100,
        TransactionDate: '2025-01-02T03:04:05Z',
      });
      await record(paid, `/api/billing/coworkerinvoices/${invoice}`);
      const [issued, invoiceUpdate] = await onEach([16, 'CoworkerInvoiceCreate'], [18, 'CoworkerInvoiceUpdate']);
      const second = `/api/billing/coworkerinvoices/${await create(t, '/api/billing/coworkerinvoices', { BusinessId: business, CoworkerId: coworker, CurrencyId: currency, TotalAmount: 50 })}`;
      await record(issued, second);
      await updated(invoiceUpdate, second, { Description: 'Paid in kind' });
      await deleted(invoiceDelete, second);

      // Events and attendees
      const [eventCreate, eventUpdate, eventDelete, attendeeCreate, attendeeUpdate, attendeeDelete] = await onEach(
        [25, 'CalendarEventCreate'],
        [26, 'CalendarEventUpdate'],
        [44, 'CalendarEventDelete'],
        [28, 'CalendarEventAttendeeCreate'],
        [29, 'CalendarEventAttendeeUpdate'],
        [27, 'CalendarEventAttendeeDelete'],
      );
      const event = await createEvent(t, business);
      await record(eventCreate, `/api/content/calendarevents/${event}`);
      await updated(eventUpdate, `/api/content/calendarevents/${event}`, { Location: 'Loft' });
      const attendee = `/api/content/eventattendees/${await createAttendee(t, event)}`;
      await record(attendeeCreate, attendee);
      await updated(attendeeUpdate, attendee, { CheckedIn: true });
      await deleted(attendeeDelete, attendee);
      await deleted(eventDelete, `/api/content/calendarevents/${event}`);

      // Tariffs, products and sales (a sale's stock change is a product update)
      const [tariffCreate, tariffUpdate, tariffDelete] = await onEach([74, 'TariffCreate'], [76, 'TariffUpdate'], [75, 'TariffDelete']);
      const tariff = `/api/billing/tariffs/${await createTariff(t, business, { Name: 'Hooked plan' })}`;
      await record(tariffCreate, tariff);
      await updated(tariffUpdate, tariff, { Price: 99 });
      await deleted(tariffDelete, tariff);
      const [productCreate, productUpdate, productDelete, saleCreate, saleUpdate, saleDelete] = await onEach(
        [81, 'ProductCreate'],
        [83, 'ProductUpdate'],
        [82, 'ProductDelete'],
        [68, 'CoworkerProductCreate'],
        [69, 'CoworkerProductUpdate'],
        [70, 'CoworkerProductDelete'],
      );
      const product = await createProduct(t, business, { TrackStock: true, CurrentStock: 5 });
      await record(productCreate, `/api/billing/products/${product}`);
      const sale = `/api/billing/coworkerproducts/${await create(t, '/api/billing/coworkerproducts', { CoworkerId: coworker, ProductId: product, Quantity: 2 })}`;
      await record(saleCreate, sale);
      await record(productUpdate, `/api/billing/products/${product}`);
      await updated(saleUpdate, sale, { Notes: 'gift' });
      await deleted(saleDelete, sale);
      await deleted(productDelete, `/api/billing/products/${await createProduct(t, business, { Name: 'Spare' })}`);

      // The business itself
      await updated(await on(84, 'BusinessUpdate'), `/api/sys/businesses/${business}`, { City: 'York' });

      // Two creates each reach these hooks: the first customer and product, and the ones deleted later.
      const counts = new Map([
        [coworkerCreate, 2],
        [productCreate, 2],
      ]);
      for (const path of paths) {
        const arrived = await receiver.waitFor(path, counts.get(path) ?? 1);
        const want = expected.get(path) as { Id: number };
        const delivery = arrived.find((r) => only([r]).Id === want.Id);
        assert.ok(delivery, `${path}: no delivery of record ${want.Id}`);
        assert.deepEqual(only([delivery]), want, path);
        // The platform's signature: upper-case hex HMAC-SHA256 of the body, keyed by the secret.
        const hookId = (await t.get(`${HOOKS}?WebHook_URL=${encodeURIComponent(receiver.url + path)}`)).body.Records[0].Id;
        const secret = await secretOf(hookId);
        assert.equal(
          delivery.headers['x-nexudus-hook-signature'],
          createHmac('sha256', secret).update(delivery.body).digest('hex').toUpperCase(),
          path,
        );
        assert.equal(delivery.headers['content-type'], 'application/json');
        // Standard Webhooks, checked by its own library.
        assert.doesNotThrow(() => new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>), path);
      }
      // Each change delivered once (the sale's product update included, once for the stock change).
      await new Promise((resolve) => setTimeout(resolve, 700));
      for (const path of paths) assert.equal(receiver.at(path).length, counts.get(path) ?? 1, path);
    });

    it('a hook fires for its own business only, and only while active', async () => {
      const path = '/scoped';
      await hook(81, path);
      const inactive = '/inactive';
      await hook(81, inactive, { Active: false });
      await createProduct(t, otherBusiness, { Name: 'Elsewhere' });
      const mine = await createProduct(t, business, { Name: 'Here' });
      const [delivery] = await receiver.waitFor(path, 1);
      assert.equal(only([delivery]).Id, mine);
      await new Promise((resolve) => setTimeout(resolve, 700));
      assert.equal(receiver.at(path).length, 1);
      assert.equal(receiver.at(inactive).length, 0);
    });

    it('a secret that is not whsec_ signs with its UTF-8 bytes, as a raw key', async () => {
      const path = '/raw-secret';
      const secret = 'plain-text-secret-0123456789';
      await hook(74, path, { Secret: secret });
      await createTariff(t, business, { Name: 'Signed plan' });
      const [delivery] = await receiver.waitFor(path, 1);
      assert.doesNotThrow(() => new Webhook(secret, { format: 'raw' }).verify(delivery.body, delivery.headers as Record<string, string>));
      assert.equal(
        delivery.headers['x-nexudus-hook-signature'],
        createHmac('sha256', secret).update(delivery.body).digest('hex').toUpperCase(),
      );
    });

    it('a rolled-back write delivers nothing', async () => {
      const path = '/rollback';
      await hook(68, path);
      await hook(83, `${path}-product`);
      const product = await createProduct(t, business, { TrackStock: true, CurrentStock: 1 });
      const coworker = await createCoworker(t, business);
      // (Earlier deliveries may be attempted meanwhile: only which deliveries exist is compared.)
      const ids = async () => (await t.rows('webhook_delivery')).map((row) => row.Id);
      const before = await ids();
      const res = await t.post('/api/billing/coworkerproducts', { CoworkerId: coworker, ProductId: product, Quantity: 3 });
      assert.equal(res.status, 400);
      assert.deepEqual(await ids(), before);
      await new Promise((resolve) => setTimeout(resolve, 700));
      assert.equal(receiver.at(path).length + receiver.at(`${path}-product`).length, 0);
    });

    it('a 500 then a 200: the same webhook-id twice, and ErrorCount back to 0', async () => {
      const path = '/flaky';
      answers.set(path, (nth) => (nth === 1 ? 500 : 200));
      const id = await hook(74, path);
      await createTariff(t, business, { Name: 'Flaky plan' });
      const [first, second] = await receiver.waitFor(path, 2);
      assert.equal(first.headers['webhook-id'], second.headers['webhook-id']);
      assert.equal(first.body, second.body);
      await eventually(async () => (await hookRecord(id)).LastTrigger !== null);
      const record = await hookRecord(id);
      assert.equal(record.ErrorCount, 0);
      assert.match(record.LastError, /500/);
      const log = (await t.get(`${HOOKS}/${id}/deliveries`)).body;
      assert.equal(log.TotalItems, 1);
      assert.equal(log.Records[0].Status, 'Succeeded');
      assert.equal(log.Records[0].Attempts, 2);
      assert.equal(log.Records[0].LastStatusCode, 200);
      assert.equal(log.Records[0].EventId, first.headers['webhook-id']);
    });

    it('an always-failing receiver deactivates the hook after WEBHOOK_MAX_CONSECUTIVE_FAILURES; re-activating resumes its deliveries', async () => {
      const path = '/failing';
      let failing = true;
      answers.set(path, () => (failing ? 503 : 200));
      const id = await hook(74, path);
      await createTariff(t, business, { Name: 'Failing plan' });
      await receiver.waitFor(path, 3);
      await eventually(async () => (await hookRecord(id)).Active === false);
      const record = await hookRecord(id);
      assert.equal(record.ErrorCount, 3);
      assert.match(record.LastError, /503/);
      // While inactive: no further attempt of the pending delivery, and no new deliveries.
      await createTariff(t, business, { Name: 'Not delivered plan' });
      await new Promise((resolve) => setTimeout(resolve, 1000));
      assert.equal(receiver.at(path).length, 3);
      assert.equal((await t.get(`${HOOKS}/${id}/deliveries`)).body.TotalItems, 1);
      failing = false;
      assert.equal((await t.put(`${HOOKS}/${id}`, { Active: true })).status, 200);
      const all = await receiver.waitFor(path, 4);
      assert.equal(only([all[3]]).Name, 'Failing plan');
      await eventually(async () => (await hookRecord(id)).LastTrigger !== null);
      assert.equal((await hookRecord(id)).ErrorCount, 0);
      await new Promise((resolve) => setTimeout(resolve, 700));
      assert.equal(receiver.at(path).length, 4);
    });

    it('410 Gone deactivates the hook at once', async () => {
      const path = '/gone';
      answers.set(path, () => 410);
      const id = await hook(74, path);
      await createTariff(t, business, { Name: 'Gone plan' });
      await receiver.waitFor(path, 1);
      await eventually(async () => (await hookRecord(id)).Active === false);
      assert.equal((await hookRecord(id)).ErrorCount, 1);
      await new Promise((resolve) => setTimeout(resolve, 700));
      assert.equal(receiver.at(path).length, 1);
    });

    it('a hanging receiver does not slow the API', async () => {
      const path = '/hanging';
      answers.set(path, () => 'hang');
      await hook(81, path);
      const baseline = Date.now();
      for (let i = 0; i < 3; i++) await createProduct(t, otherBusiness, { Name: `Baseline ${i}` });
      const per = (Date.now() - baseline) / 3;
      await createProduct(t, business, { Name: 'Hangs' });
      await receiver.waitFor(path, 1);
      const start = Date.now();
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => createProduct(t, business, { Name: `While hanging ${i}` })));
      assert.equal(results.length, 10);
      const elapsed = Date.now() - start;
      assert.ok(elapsed < Math.max(2000, per * 30), `10 creates took ${elapsed} ms while a receiver hung`);
    });

    it('the delivery log, redeliver and test', async () => {
      const path = '/log';
      const id = await hook(74, path);
      await createTariff(t, business, { Name: 'Logged plan' });
      const [original] = await receiver.waitFor(path, 1);
      // The receiver has it; the worker writes the result right after.
      await eventually(async () => (await t.get(`${HOOKS}/${id}/deliveries`)).body.Records[0]?.Status === 'Succeeded');
      const log = (await t.get(`${HOOKS}/${id}/deliveries`)).body;
      assert.equal(log.TotalItems, 1);
      const delivery = log.Records[0];
      assert.equal(delivery.WebHookId, id);
      assert.equal(delivery.Action, 74);
      assert.equal(delivery.Status, 'Succeeded');
      assert.match(delivery.CreatedOn, /Z$/);
      const again = await t.post(`${HOOKS}/${id}/deliveries/${delivery.Id}/redeliver`);
      assert.equal(again.status, 200);
      assert.equal(again.body.WasSuccessful, true);
      const [, redelivered] = await receiver.waitFor(path, 2);
      assert.equal(redelivered.headers['webhook-id'], original.headers['webhook-id']);
      assert.equal(redelivered.body, original.body);
      assert.equal((await t.post(`${HOOKS}/${id}/deliveries/999999/redeliver`)).status, 404);
      const test = await t.post(`${HOOKS}/${id}/test`);
      assert.equal(test.status, 200);
      const [, , tested] = await receiver.waitFor(path, 3);
      const { LastTrigger: _sent, ...hookAsSent } = await hookRecord(id);
      const { LastTrigger: _before, ...testBody } = only([tested]);
      assert.deepEqual(testBody, hookAsSent);
      assert.equal((await t.get(`${HOOKS}/${id}/deliveries`)).body.TotalItems, 2);
    });

    it('CalendarEventSpotAvailable: a sold-out event with a waiting list gets a free place', async () => {
      const path = '/spot';
      await hook(1001, path);
      const event = await createEvent(t, business, { Allocation: 1, EnableWaitList: true });
      const attendee = await createAttendee(t, event);
      const customer = await createCoworker(t, business);
      await create(t, '/api/content/eventwaitingattendees', {
        BusinessId: business,
        CalendarEventId: event,
        FullName: 'Wai Ting',
        Email: 'wait@example.com',
        CoworkerId: customer,
      });
      // Without a waiting list nobody is told.
      const quiet = await createEvent(t, business, { Allocation: 1, EnableWaitList: false });
      await t.delete(`/api/content/eventattendees/${await createAttendee(t, quiet)}`);
      assert.equal((await t.delete(`/api/content/eventattendees/${attendee}`)).status, 200);
      const [delivery] = await receiver.waitFor(path, 1);
      assert.deepEqual(only([delivery]), (await t.get(`/api/content/calendarevents/${event}`)).body);
      assert.equal(only([delivery]).SoldOut, false);
      // Raising the allocation of a sold-out event opens a place too.
      await createAttendee(t, event);
      const full = (await t.get(`/api/content/calendarevents/${event}`)).body;
      assert.equal(full.SoldOut, true);
      await t.put(`/api/content/calendarevents/${event}`, { ...full, Allocation: 2 });
      await receiver.waitFor(path, 2);
      await new Promise((resolve) => setTimeout(resolve, 700));
      assert.equal(receiver.at(path).length, 2);
    });

    it('parallel changes: each recorded and delivered once', async () => {
      const path = '/parallel';
      await hook(81, path);
      const ids = await Promise.all(Array.from({ length: 30 }, (_, i) => createProduct(t, business, { Name: `Parallel ${i}` })));
      const arrived = await receiver.waitFor(path, ids.length);
      await new Promise((resolve) => setTimeout(resolve, 700));
      assert.deepEqual(
        receiver
          .at(path)
          .map((r) => only([r]).Id)
          .sort((a, b) => a - b),
        [...ids].sort((a, b) => a - b),
      );
      assert.equal(new Set(arrived.map((r) => r.headers['webhook-id'])).size, ids.length);
      for (const id of ids.slice(0, 5))
        assert.deepEqual(
          (await t.get(`/api/billing/products/${id}/history`)).body.Records.map((e: any) => e.Action),
          ['Create'],
        );
    });

    it('a delivery claimed by an instance that died is taken over when its lease runs out, not before', async () => {
      const path = '/lease';
      const id = await hook(74, path);
      const q = (name: string) => t.db.id(name);
      const at = (ms: number) => t.db.dateParam(new Date(Date.now() + ms));
      const insert = (eventId: string, leaseUntil: string) =>
        t.db.query(
          `INSERT INTO ${q('webhook_delivery')} (${['WebHookId', 'EventId', 'Action', 'Entity', 'RecordId', 'Body', 'Status', 'Attempts', 'CreatedOn', 'NextAttemptOn', 'LeaseOwner', 'LeaseUntil'].map(q).join(', ')}) ` +
            "VALUES (?, ?, 74, 'Tariff', 1, '[{\"Id\":1}]', 'Pending', 0, ?, ?, 'an-instance-that-died', ?)",
          [id, eventId, at(-5000), at(-5000), leaseUntil],
        );
      await insert('expired-lease', at(-1000));
      await insert('live-lease', at(60_000));
      const [delivery] = await receiver.waitFor(path, 1);
      assert.equal(delivery.headers['webhook-id'], 'expired-lease');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      assert.equal(receiver.at(path).length, 1, 'a live lease is left to its holder');
    });

    it('restricted administrators: WebHook roles and their own businesses only', async () => {
      const id = await hook(74, '/roles');
      await createUser(t, {
        Email: 'hooks-reader@example.com',
        Password: PASSWORD,
        Roles: ['WebHook-Read', 'WebHook-List'],
        Businesses: [business],
      });
      await createUser(t, {
        Email: 'hooks-outsider@example.com',
        Password: PASSWORD,
        Roles: ['WebHook-Read', 'WebHook-Edit'],
        Businesses: [otherBusiness],
      });
      const reader = basicAuth('hooks-reader@example.com', PASSWORD);
      const outsider = basicAuth('hooks-outsider@example.com', PASSWORD);
      assert.equal((await t.get(`${HOOKS}/${id}`, { auth: reader })).status, 200);
      assert.equal((await t.get(`${HOOKS}/${id}/deliveries`, { auth: reader })).status, 200);
      assert.equal((await t.get(`${HOOKS}/${id}/secret`, { auth: reader })).status, 401);
      assert.equal((await t.post(`${HOOKS}/${id}/test`, undefined, { auth: reader })).status, 401);
      assert.equal((await t.get(`${HOOKS}/${id}/secret`, { auth: outsider })).status, 401);
      assert.equal((await t.get(`${HOOKS}/${id}/deliveries`, { auth: outsider })).status, 401);
      assert.equal((await t.get(`${HOOKS}/999999/secret`)).status, 404);
    });
  });
});

describe('webhooks without WEBHOOK_ALLOW_PRIVATE_TARGETS', () => {
  it('refuses a loopback target on the address connected to, and says so in LastError', async () => {
    const t = await startApp({ WEBHOOK_RETRY_DELAYS: '60' });
    const receiver = await startReceiver();
    try {
      const business = await createBusiness(t);
      const targets = [`${receiver.url}/private`, `http://localhost:${new URL(receiver.url).port}/private-by-name`];
      const ids = [];
      for (const URL of targets) ids.push(await create(t, HOOKS, { BusinessId: business, Name: 'private', Action: 74, URL }));
      await createTariff(t, business);
      for (const id of ids) {
        await eventually(async () => (await t.get(`${HOOKS}/${id}`)).body.ErrorCount === 1, 8000);
        const record = (await t.get(`${HOOKS}/${id}`)).body;
        assert.match(record.LastError, /Refused to connect to (127\.0\.0\.1|::1)/);
        assert.equal((await t.get(`${HOOKS}/${id}/deliveries`)).body.Records[0].Status, 'Pending');
      }
      assert.equal(receiver.received.length, 0);
    } finally {
      await receiver.close();
      await t.close();
    }
  });
});
