import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createUser, eventually } from './support/auth.js';
import { createBusiness, createCoworker, createTariff, create } from './support/fixtures.js';
import { startReceiver } from './support/webhook-receiver.js';
import { appPerSuite, basicAuth, startApp } from './support/test-app.js';

// Smaller leaks (docs/api.md §1, §6, §7.1, §7.4): write-only values never echoed nor stored with an
// idempotent answer; enum names are not object members; a record moved between businesses keeps its
// first business's values from the second's administrators; a webhook moved to another business does
// not take the first business's deliveries along; IPv6 addresses that embed IPv4 ones count as those.

const HOOKS = '/api/sys/webhooks';
const PASSWORD = 'a long enough password';

describe('smaller leaks', () => {
  const t = appPerSuite({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_DELAYS: '0.2' });

  it('never echoes a too-short Password, TwoFactorSecret or Secret in AttemptedValue, nor stores it with an idempotent answer', async () => {
    const business = await createBusiness(t);
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['/api/sys/users', { Email: 'leak1@example.com', FullName: 'Leak', Password: 'sh0rt' }, 'sh0rt'],
      [
        '/api/sys/users',
        { Email: 'leak2@example.com', FullName: 'Leak', Password: PASSWORD, TwoFactorEnabled: true, TwoFactorSecret: 'JBSWY3DPEHPK3PXQ' },
        'JBSWY3DPEHPK3PXQ',
      ],
      [HOOKS, { BusinessId: business, Name: 'Leaky', Action: 74, URL: 'https://192.0.2.1/h', Secret: 'short-Secret-1' }, 'short-Secret-1'],
      [
        '/api/spaces/coworkers',
        { BusinessId: business, FullName: 'Leak', Email: 'leak3@example.com', CreateUser: true, Password: 'tiny-pw' },
        'tiny-pw',
      ],
    ];
    for (const [i, [path, body, secret]] of cases.entries()) {
      for (const headers of [{}, { 'Idempotency-Key': `leak-${i}-${Date.now()}` }] as Array<Record<string, string>>) {
        const res = await t.request('POST', path, { body, headers });
        assert.equal(res.status, 400, `${path}: ${res.text}`);
        assert.ok(!res.text.includes(secret), `${path} echoed ${secret}: ${res.text}`);
        for (const error of res.body.Errors) {
          if (['Password', 'TwoFactorSecret', 'Secret'].includes(error.PropertyName)) assert.equal(error.AttemptedValue, null);
        }
      }
      assert.ok(!JSON.stringify(await t.rows('idempotency_key')).includes(secret), `${secret} stored with an idempotent answer`);
    }
    const id = await createUser(t, { Email: 'leak4@example.com', FullName: 'Leak', Password: PASSWORD });
    const update = await t.put(`/api/sys/users/${id}`, { Id: id, Email: 'leak4@example.com', FullName: 'Leak', Password: 'x1' });
    assert.equal(update.status, 400);
    assert.ok(!update.text.includes('"x1"'), update.text);
  });

  it('answers 404 to enum names that are object members, and knows the enums of §9–§11', async () => {
    for (const name of [
      'constructor',
      '__proto__',
      'toString',
      'hasOwnProperty',
      'valueOf',
      'isPrototypeOf',
      '__defineGetter__',
      'CONSTRUCTOR',
    ]) {
      const res = await t.get(`/api/utils/enums?name=${encodeURIComponent(name)}`);
      assert.equal(res.status, 404, `${name}: ${res.text.slice(0, 100)}`);
    }
    const expiration = (await t.get('/api/utils/enums?name=eExpirationType')).body;
    assert.deepEqual((await t.get('/api/utils/enums?name=eRecurrentChargePattern')).body, expiration);
    const providers = (await t.get('/api/utils/enums?name=ePaymentProvider')).body as Array<{ Id: number; Name: string }>;
    assert.equal(providers.length, 46);
    const byId = new Map(providers.map((p) => [p.Id, p.Name]));
    assert.deepEqual(
      [byId.get(0), byId.get(4), byId.get(11), byId.get(401), byId.get(994), byId.get(999), byId.get(10)],
      ['None', 'Stripe', 'Manual', 'HostedPaymentPage1', 'Credit', 'Other', undefined],
    );
    const reasons = (await t.get('/api/utils/enums?name=ebookingcancellationreason')).body;
    assert.deepEqual(
      reasons.map((r: any) => r.Id),
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    );
    assert.equal(reasons[9].Name, 'MarketPlace');
  });

  it("shows a customer moved from B to A to A's administrator without its B-era values", async () => {
    const [b, a] = [await createBusiness(t, { Name: 'Bee' }), await createBusiness(t, { Name: 'Ay' })];
    const customer = await createCoworker(t, b, { FullName: 'Secret Name', City: 'Secret City' });
    assert.equal(
      (await t.put(`/api/spaces/coworkers/${customer}`, { BusinessId: a, FullName: 'Public Name', City: 'Public City' })).status,
      200,
    );
    await createUser(t, { Email: 'admin.a@example.com', Password: PASSWORD, Roles: ['Coworker-Read'], Businesses: [a] });
    await createUser(t, { Email: 'admin.b@example.com', Password: PASSWORD, Roles: ['Coworker-Read'], Businesses: [b] });
    const seenByA = await t.get(`/api/spaces/coworkers/${customer}/history`, { auth: basicAuth('admin.a@example.com', PASSWORD) });
    assert.equal(seenByA.status, 200, seenByA.text);
    assert.deepEqual(
      seenByA.body.Records.map((e: any) => e.Action),
      ['Update'],
    );
    assert.ok(!seenByA.text.includes('Secret'), seenByA.text);
    const moved = seenByA.body.Records[0].Changes;
    assert.deepEqual(
      moved.find((c: any) => c.Field === 'City'),
      { Field: 'City', From: null, To: 'Public City' },
    );
    const seenByB = await t.get(`/api/spaces/coworkers/${customer}/history`, { auth: basicAuth('admin.b@example.com', PASSWORD) });
    assert.deepEqual(
      seenByB.body.Records.map((e: any) => e.Action),
      ['Create'],
    );
    assert.ok(!seenByB.text.includes('Public'), seenByB.text);
    // A full administrator sees both values.
    const full = (await t.get(`/api/spaces/coworkers/${customer}/history`)).body.Records[0].Changes;
    assert.deepEqual(
      full.find((c: any) => c.Field === 'City'),
      { Field: 'City', From: 'Secret City', To: 'Public City' },
    );
  });

  it("does not hand a webhook's deliveries of business B to business A when the hook moves to A", async () => {
    const receiver = await startReceiver();
    try {
      const [b, a] = [await createBusiness(t, { Name: 'Hook B' }), await createBusiness(t, { Name: 'Hook A' })];
      const hook = await create(t, HOOKS, { BusinessId: b, Name: 'Mover', Action: 74, URL: `${receiver.url}/mover` });
      await createTariff(t, b, { Name: 'B secret tariff' });
      await eventually(async () => (await t.get(`${HOOKS}/${hook}/deliveries`)).body.Records[0]?.Status === 'Succeeded', 8000);
      const delivery = (await t.get(`${HOOKS}/${hook}/deliveries`)).body.Records[0].Id;
      assert.equal((await t.put(`${HOOKS}/${hook}`, { BusinessId: a })).status, 200);
      await createUser(t, { Email: 'hooks.a@example.com', Password: PASSWORD, Roles: ['WebHook-Read', 'WebHook-Edit'], Businesses: [a] });
      const auth = basicAuth('hooks.a@example.com', PASSWORD);
      const log = await t.get(`${HOOKS}/${hook}/deliveries`, { auth });
      assert.equal(log.status, 200);
      assert.equal(log.body.TotalItems, 0, log.text);
      const redeliver = await t.post(`${HOOKS}/${hook}/deliveries/${delivery}/redeliver`, undefined, { auth });
      assert.equal(redeliver.status, 404, redeliver.text);
      const before = receiver.received.length;
      // A's own deliveries are its to see.
      await createTariff(t, a, { Name: 'A tariff' });
      await eventually(async () => (await t.get(`${HOOKS}/${hook}/deliveries`, { auth })).body.Records[0]?.Status === 'Succeeded', 8000);
      assert.equal((await t.get(`${HOOKS}/${hook}/deliveries`, { auth })).body.TotalItems, 1);
      assert.ok(!receiver.received.slice(before).some((r) => r.body.includes('B secret tariff')));
    } finally {
      await receiver.close();
    }
  });
});

describe('a webhook moved to another business', () => {
  it('never sends what it had pending for the business it left', async () => {
    const t = await startApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_DELAYS: '60' });
    const receiver = await startReceiver(() => 500);
    try {
      const [b, a] = [await createBusiness(t, { Name: 'Left' }), await createBusiness(t, { Name: 'Joined' })];
      const hook = await create(t, HOOKS, { BusinessId: b, Name: 'Mover', Action: 74, URL: `${receiver.url}/moved` });
      await createTariff(t, b, { Name: 'Left behind' });
      // The first attempt failed: the delivery waits for its retry.
      await eventually(
        async () => (await t.rows('webhook_delivery')).some((d) => Number(d.Attempts) === 1 && d.Status === 'Pending'),
        8000,
      );
      assert.equal((await t.put(`${HOOKS}/${hook}`, { BusinessId: a })).status, 200);
      const [delivery] = await t.rows('webhook_delivery');
      assert.equal(delivery.Status, 'Failed');
      assert.match(String(delivery.LastError), /moved to another business/);
      assert.equal(delivery.NextAttemptOn, null);
    } finally {
      await receiver.close();
      await t.close();
    }
  });
});

describe('webhook targets: IPv6 addresses that embed a private IPv4 address', () => {
  it('refuses http://[::127.0.0.1]/ and the other embedded forms, and says so in LastError', async () => {
    const t = await startApp({ WEBHOOK_RETRY_DELAYS: '60' });
    const receiver = await startReceiver();
    try {
      const business = await createBusiness(t);
      const port = new URL(receiver.url).port;
      const ids: number[] = [];
      for (const host of [
        '[::127.0.0.1]',
        '[::ffff:127.0.0.1]',
        '[::ffff:7f00:1]',
        '[64:ff9b::127.0.0.1]',
        '[2002:7f00:1::1]',
        '[::ffff:0:127.0.0.1]',
      ]) {
        ids.push(await create(t, HOOKS, { BusinessId: business, Name: 'embedded', Action: 74, URL: `http://${host}:${port}/embedded` }));
      }
      await createTariff(t, business);
      for (const id of ids) {
        await eventually(async () => (await t.get(`${HOOKS}/${id}`)).body.ErrorCount === 1, 8000);
        const record = (await t.get(`${HOOKS}/${id}`)).body;
        assert.match(record.LastError, /Refused to connect to /, `${record.URL}: ${record.LastError}`);
      }
      assert.equal(receiver.received.length, 0);
    } finally {
      await receiver.close();
      await t.close();
    }
  });
});
