// Part of npm run test:cluster: safe writes across two instances of the built service on one MariaDB
// database behind nginx. A retried POST that lands on the other instance is replayed, not written
// twice; a bounded burst of parallel writes of every kind over both instances ends in no 5xx, with
// the invariants intact. Loopback only.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startNginx, type Nginx } from '../support/nginx.js';
import { startService, type Service } from '../support/service.js';
import { basicAuth, freshMySqlDatabase, TEST_JWT_SECRET } from '../support/test-app.js';

const ADMIN = { email: 'safe-writes-admin@test.example', password: 'safe-writes-admin-password' };
const admin = basicAuth(ADMIN.email, ADMIN.password);

interface Res {
  status: number;
  body: any;
  text: string;
  headers: Headers;
  upstream: string | null;
}

async function call(base: string, method: string, path: string, json?: unknown, headers: Record<string, string> = {}): Promise<Res> {
  const res = await fetch(base + path, {
    method,
    headers: {
      authorization: admin,
      'x-forwarded-for': '10.15.0.1',
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: json === undefined ? undefined : JSON.stringify(json),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body, text, headers: res.headers, upstream: res.headers.get('x-upstream') };
}

/** Runs the tasks with at most `width` in flight at once. */
async function inParallel<T>(tasks: Array<() => Promise<T>>, width: number): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < tasks.length) {
        const i = next++;
        results[i] = await tasks[i]();
      }
    }),
  );
  return results;
}

describe('safe writes across two instances behind nginx', () => {
  let database: Awaited<ReturnType<typeof freshMySqlDatabase>>;
  let a: Service;
  let b: Service;
  let nginx: Nginx;
  let gbp: number;
  let gb: number;

  before(async () => {
    database = await freshMySqlDatabase();
    const env = {
      DATABASE_URL: database.url,
      JWT_SECRET: TEST_JWT_SECRET,
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      TRUST_PROXY: '127.0.0.1',
      BILLING_RUN_INTERVAL_SECONDS: '1',
    };
    [a, b] = await Promise.all([startService('A', env), startService('B', env)]);
    nginx = await startNginx([a.port, b.port]);
    gbp = (await call(a.url, 'GET', '/api/sys/currencies?Currency_Code=GBP')).body.Records[0].Id;
    gb = (await call(a.url, 'GET', '/api/sys/countries?Country_TwoDigitsCode=GB')).body.Records[0].Id;
  });

  after(async () => {
    await nginx?.stop();
    await a?.stop();
    await b?.stop();
    await database?.drop();
  });

  const createOk = async (path: string, body: unknown): Promise<number> => {
    const res = await call(nginx.url, 'POST', path, body);
    assert.equal(res.status, 200, `${path}: ${res.text}`);
    return res.body.Value.Id;
  };

  it('a POST retried with its Idempotency-Key on the other instance is replayed, not written twice', async () => {
    const business = await createOk('/api/sys/businesses', { Name: 'Replay', CurrencyId: gbp, CountryId: gb });
    const sale = {
      BusinessId: business,
      CoworkerId: await createOk('/api/spaces/coworkers', { BusinessId: business, FullName: 'Ada', Email: 'ada@example.com' }),
      CurrencyId: gbp,
      TotalAmount: 12,
    };
    const first = await call(nginx.url, 'POST', '/api/billing/coworkerinvoices', sale, { 'Idempotency-Key': 'cluster-retry-1' });
    assert.equal(first.status, 200, first.text);
    // nginx takes turns: the retries land on both instances, the other one among them.
    const retries = await Promise.all(
      [0, 1, 2].map(() => call(nginx.url, 'POST', '/api/billing/coworkerinvoices', sale, { 'Idempotency-Key': 'cluster-retry-1' })),
    );
    assert.ok(
      retries.some((retry) => retry.upstream !== first.upstream),
      `${first.upstream} ${retries.map((r) => r.upstream).join(' ')}`,
    );
    for (const retry of retries) {
      assert.equal(retry.status, 200, retry.text);
      assert.equal(retry.text, first.text);
      assert.equal(retry.headers.get('idempotent-replayed'), 'true');
    }
    const invoices = await call(a.url, 'GET', `/api/billing/coworkerinvoices?CoworkerInvoice_Business=${business}`);
    assert.equal(invoices.body.TotalItems, 1);
  });

  it('parallel bookings of one slot through both instances: exactly one made (three with allocation 3)', async () => {
    const business = await createOk('/api/sys/businesses', { Name: 'Bookings', CurrencyId: gbp, CountryId: gb });
    const type = await createOk('/api/spaces/resourcetypes', { BusinessId: business, Name: 'Rooms' });
    const booker = await createOk('/api/spaces/coworkers', { BusinessId: business, FullName: 'Booker', Email: 'booker@example.com' });
    for (const allocation of [1, 3]) {
      const room = await createOk('/api/spaces/resources', {
        BusinessId: business,
        Name: `Room ${allocation}`,
        ResourceTypeId: type,
        Allocation: allocation,
      });
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          call(i % 2 ? a.url : b.url, 'POST', '/api/spaces/bookings', {
            ResourceId: room,
            CoworkerId: booker,
            FromTime: '2031-05-05T09:00',
            ToTime: '2031-05-05T10:00',
          }),
        ),
      );
      assert.deepEqual(
        answers.filter((answer) => answer.status >= 500).map((f) => `${f.status} ${f.text}`),
        [],
      );
      assert.equal(answers.filter((answer) => answer.status === 200).length, allocation, answers.map((answer) => answer.status).join());
      assert.equal((await call(b.url, 'GET', `/api/spaces/bookings?Booking_Resource=${room}`)).body.TotalItems, allocation);
    }
  });

  it('a bounded burst of parallel writes of every kind on both instances: no 5xx, invariants intact', async () => {
    const business = await createOk('/api/sys/businesses', { Name: 'Stress', CurrencyId: gbp, CountryId: gb });
    const second = await createOk('/api/sys/businesses', { Name: 'Stress 2', CurrencyId: gbp, CountryId: gb });
    const tariffs: number[] = [];
    for (let i = 0; i < 4; i++)
      tariffs.push(await createOk('/api/billing/tariffs', { BusinessId: business, Name: `T${i}`, Price: 10, CurrencyId: gbp }));
    const customer = await createOk('/api/spaces/coworkers', { BusinessId: business, FullName: 'Grace', Email: 'grace@example.com' });
    const product = {
      BusinessId: business,
      Name: 'Stocked',
      SystemProductType: 1,
      Description: 'x',
      DisplayOrder: 0,
      Price: 5,
      CurrencyId: gbp,
      AvailableAs: 3,
      TrackStock: true,
      CurrentStock: 40,
      Tariffs: [tariffs[0]],
    };
    const stocked = await createOk('/api/billing/products', product);
    await createOk('/api/billing/productbookingcredits', { ProductId: stocked, Name: 'Hours', Credit: 2 });
    const event = await createOk('/api/content/calendarevents', {
      BusinessId: business,
      Name: 'Talk',
      StartDate: '2099-01-01T10:00:00Z',
      EndDate: '2099-01-01T12:00:00Z',
      Allocation: 15,
    });
    const user = await createOk('/api/sys/users', {
      Email: 'stress-user@example.com',
      FullName: 'Stress',
      Password: 'a long password here',
      Roles: ['Product-List'],
      Businesses: [business],
    });
    const subset = (i: number) => tariffs.filter((_, j) => (i >> j) & 1 || j === i % 4);
    const base = (i: number) => (i % 2 ? a.url : b.url);

    const tasks: Array<() => Promise<Res>> = [];
    for (let i = 0; i < 30; i++) {
      tasks.push(() =>
        call(base(i), 'POST', '/api/billing/products', { ...product, Name: `P${i}`, TrackStock: false, Tariffs: subset(i) }),
      );
      tasks.push(() =>
        call(base(i + 1), 'PUT', `/api/billing/products/${stocked}`, { ...product, CurrentStock: undefined, Tariffs: subset(i) }),
      );
      tasks.push(() => call(base(i), 'POST', '/api/billing/coworkerproducts', { CoworkerId: customer, ProductId: stocked, Quantity: 1 }));
      tasks.push(() =>
        call(base(i + 1), 'POST', '/api/billing/coworkerinvoices', {
          BusinessId: business,
          CoworkerId: customer,
          CurrencyId: gbp,
          TotalAmount: i + 1,
        }),
      );
      tasks.push(() =>
        call(base(i), 'POST', '/api/content/eventattendees', {
          CalendarEventId: event,
          FullName: `Guest ${i}`,
          Email: `guest${i}@example.com`,
        }),
      );
      if (i % 3 === 0)
        tasks.push(() =>
          call(base(i + 1), 'PUT', `/api/sys/users/${user}`, {
            Email: 'stress-user@example.com',
            FullName: 'Stress',
            Roles: ['Product-List'],
            Businesses: i % 2 ? [business] : [business, second],
          }),
        );
      if (i % 3 === 1)
        tasks.push(() =>
          call(base(i), 'POST', '/api/sys/users', {
            Email: `stress${i}@example.com`,
            FullName: `U${i}`,
            Password: 'a long password here',
            Roles: [],
            Businesses: [business, second],
          }),
        );
    }
    const answers = await inParallel(tasks, 16);
    const failures = answers.filter((answer) => answer.status >= 500);
    assert.deepEqual(
      failures.map((f) => `${f.status} ${f.text}`),
      [],
    );
    assert.ok(
      answers.every((answer) => answer.status === 200 || answer.status === 400),
      answers
        .filter((x) => x.status !== 200 && x.status !== 400)
        .map((x) => x.text)
        .join('\n'),
    );

    const sales = (await call(a.url, 'GET', `/api/billing/coworkerproducts?CoworkerProduct_Product=${stocked}&size=1000`)).body.TotalItems;
    const stock = (await call(b.url, 'GET', `/api/billing/products/${stocked}`)).body;
    assert.equal(stock.CurrentStock, 40 - sales, 'every sale took its stock once');
    assert.ok(sales <= 40);
    const credits = (await call(a.url, 'GET', `/api/billing/coworkerbookingcredits?CoworkerBookingCredit_Coworker=${customer}&size=1000`))
      .body.TotalItems;
    assert.equal(credits, sales, 'one credit released per sale');
    const numbers = (
      await call(a.url, 'GET', `/api/billing/coworkerinvoices?CoworkerInvoice_Business=${business}&size=1000`)
    ).body.Records.map((r: { InvoiceNumber: string }) => Number(r.InvoiceNumber)).sort((x: number, y: number) => x - y);
    assert.deepEqual(
      numbers,
      numbers.map((_: number, i: number) => i + 1),
      'invoice numbers unique and gapless',
    );
    const attendees = (await call(a.url, 'GET', `/api/content/eventattendees?EventAttendee_CalendarEvent=${event}&size=1000`)).body
      .TotalItems;
    assert.equal(attendees, 15, 'the event filled up exactly');
    const sentLists = Array.from({ length: 30 }, (_, i) => JSON.stringify(subset(i)));
    assert.ok(
      sentLists.includes(JSON.stringify(stock.Tariffs)),
      `the product's Tariffs are one list a writer sent: ${JSON.stringify(stock.Tariffs)}`,
    );
    const businesses = (await call(a.url, 'GET', `/api/sys/users/${user}`)).body.Businesses;
    assert.ok(
      [[business], [business, second]].some((list) => JSON.stringify(list) === JSON.stringify(businesses)),
      JSON.stringify(businesses),
    );
  });
  it('billing runs on both instances, manual and automatic at once, bill each customer\'s items once (docs/billing.md, "Exactly once")', async () => {
    const business = await createOk('/api/sys/businesses', { Name: 'Billing', CurrencyId: gbp, CountryId: gb });
    const tariff = await createOk('/api/billing/tariffs', { BusinessId: business, Name: 'Desk', Price: 100, CurrencyId: gbp });
    const product = await createOk('/api/billing/products', {
      BusinessId: business,
      Name: 'Coffee',
      SystemProductType: 3,
      Description: 'x',
      DisplayOrder: 0,
      Price: 2.5,
      CurrencyId: gbp,
      AvailableAs: 3,
    });
    const start = new Date(Date.now() - 45 * 86_400_000).toISOString().slice(0, 10);
    const customers: number[] = [];
    for (let i = 0; i < 12; i++) {
      const customer = await createOk('/api/spaces/coworkers', {
        BusinessId: business,
        FullName: `Member ${i}`,
        Email: `member${i}@example.com`,
      });
      // The sale before the contract: the automatic runs (every second) find a customer due only once it
      // has its contract, so they never bill one between the two creates (the sale then on a second invoice).
      await createOk('/api/billing/coworkerproducts', { CoworkerId: customer, ProductId: product, SaleDate: start });
      await createOk('/api/billing/coworkercontracts', { CoworkerId: customer, TariffId: tariff, StartDate: start });
      customers.push(customer);
    }
    // The first half also by hand, through both instances, while their automatic runs look every second.
    const tasks: Array<() => Promise<Res>> = [];
    for (let i = 0; i < 24; i++) {
      const ids = customers.slice(0, 6);
      tasks.push(() => call(i % 2 ? a.url : b.url, 'POST', '/api/spaces/coworkers/runcommand', { Key: 'COWORKER_BILL_RUN', Ids: ids }));
      tasks.push(() => call(i % 2 ? b.url : a.url, 'POST', `/api/billing/coworkerinvoices/${business}/create/${customers[i % 6]}`, {}));
    }
    const answers = await inParallel(tasks, 12);
    assert.deepEqual(
      answers.filter((answer) => answer.status >= 500).map((f) => `${f.status} ${f.text}`),
      [],
    );
    const invoicesOf = async () =>
      (await call(a.url, 'GET', `/api/billing/coworkerinvoices?CoworkerInvoice_Business=${business}&size=1000`)).body.Records as Array<{
        Id: number;
        CoworkerId: number;
        InvoiceNumber: string;
      }>;
    // The automatic runs bill the other half; wait for them (the check below is on the state, not on time).
    for (
      let waited = 0;
      new Set((await invoicesOf()).map((invoice) => invoice.CoworkerId)).size < customers.length && waited < 30_000;
      waited += 250
    )
      await new Promise((resolve) => setTimeout(resolve, 250));
    const invoices = await invoicesOf();
    assert.deepEqual(
      [...new Set(invoices.map((invoice) => invoice.CoworkerId))].sort((x, y) => x - y),
      [...customers].sort((x, y) => x - y),
    );
    const keys: string[] = [];
    const linesOf: Record<number, string[]> = {};
    for (const invoice of invoices) {
      const lines = (
        await call(b.url, 'GET', `/api/billing/coworkerinvoicelines?CoworkerInvoiceLine_CoworkerInvoice=${invoice.Id}&size=100`)
      ).body.Records;
      linesOf[invoice.Id] = lines.map((line: any) => `${line.CoworkerContractUniqueId ?? line.CoworkerProductUniqueId}/${line.PeriodFrom}`);
      keys.push(...linesOf[invoice.Id]);
    }
    assert.equal(new Set(keys).size, keys.length, 'no item billed twice');
    const runs = (await call(a.url, 'GET', `/api/billing/billingruns?BillingRun_Business=${business}&size=1000`)).body.Records;
    // On a failure, what each invoice holds and which run made it.
    const details = () =>
      JSON.stringify({
        invoices: invoices.map((i) => ({ ...i, lines: linesOf[i.Id] })),
        runs: runs.map((r: any) => [r.Trigger, r.InvoiceIds, r.Errors]),
      });
    assert.equal(invoices.length, customers.length, `one invoice per customer: ${details()}`);
    assert.deepEqual(
      invoices.map((invoice) => Number(invoice.InvoiceNumber)).sort((x, y) => x - y),
      invoices.map((_, i) => i + 1),
    );
    assert.ok(
      runs.some((run: any) => run.Trigger === 'Automatic'),
      'the automatic run billed some',
    );
  });
});
