// npm run test:galera: three instances of the built service (the Dockerfile's command), each on its own
// node of a three-node MariaDB Galera cluster (test/galera/galera-cluster.ts), and the guarantees of a
// single database held across nodes: parallel requests spread over the three instances race on the
// same rows through different nodes, where conflicts surface at commit as certification failures.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it, type TestContext } from 'node:test';
import mysql from 'mysql2/promise';
import { httpRequest, type HttpAnswer } from '../support/http.js';
import { sleep, startService, type Service } from '../support/service.js';
import { basicAuth, TEST_JWT_SECRET } from '../support/test-app.js';
import { missingPackages, startGaleraCluster, type GaleraCluster, type GaleraNode } from './galera-cluster.js';

const DATABASE = 'coworking';
const ADMIN = { email: 'galera-admin@test.example', password: 'galera-admin-password' };
const admin = basicAuth(ADMIN.email, ADMIN.password);
const CUSTOMER_PASSWORD = 'galera customer password';

interface Instance {
  name: string;
  node: GaleraNode;
  service: Service;
}

/** What every request answered, for the figures at the end. */
const tally = { requests: 0, statuses: new Map<number, number>() };

async function call(
  instance: Instance,
  method: string,
  path: string,
  options: { auth?: string | null; json?: unknown; form?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<HttpAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  const auth = options.auth === undefined ? admin : options.auth;
  if (auth) headers.authorization = auth;
  tally.requests++;
  let status = 0;
  try {
    const res = await httpRequest(instance.service.url + path, {
      method,
      headers,
      json: options.json,
      form: options.form,
      timeoutMs: 20_000,
    });
    status = res.status;
    return res;
  } finally {
    tally.statuses.set(status, (tally.statuses.get(status) ?? 0) + 1);
  }
}

const serverErrors = (results: HttpAnswer[]) =>
  results.filter((r) => r.status >= 500 || r.status === 0).map((r) => `${r.status} ${JSON.stringify(r.body)}`);

describe('three instances on a three-node MariaDB Galera cluster', () => {
  let cluster: GaleraCluster;
  let instances: Instance[] = [];
  let business: number;
  let gbp: number;
  let uk: number;
  let tariffs: number[];

  /** n requests at once, the i-th sent to instance i mod 3 (so through node i mod 3). */
  const across = (n: number, send: (instance: Instance, i: number) => Promise<HttpAnswer>) =>
    Promise.all(Array.from({ length: n }, (_, i) => send(instances[i % instances.length], i)));
  const a = () => instances[0];
  const created = async (instance: Instance, path: string, json: Record<string, unknown>): Promise<number> => {
    const res = await call(instance, 'POST', path, { json });
    assert.equal(res.status, 200, `POST ${path}: ${JSON.stringify(res.body)}`);
    return res.body.Value.Id as number;
  };
  /** Certification conflicts so far, summed over the running nodes (failed certifications and the
   *  local transactions they aborted): each reached the service as a deadlock and was run again. */
  const conflicts = async (nodes = cluster.nodes) => {
    let sum = 0;
    for (const node of nodes) {
      const values = await cluster.status(node).catch(() => undefined);
      if (values) sum += Number(values.wsrep_local_cert_failures) + Number(values.wsrep_local_bf_aborts);
    }
    return sum;
  };
  /** Runs a check and reports its requests, conflicts and 5xx. */
  const measured = async <T>(context: TestContext, check: () => Promise<T>): Promise<T> => {
    const before = { requests: tally.requests, conflicts: await conflicts(), errors: countServerErrors() };
    const result = await check();
    context.diagnostic(
      `${tally.requests - before.requests} requests, ${(await conflicts()) - before.conflicts} certification conflicts, ${countServerErrors() - before.errors} 5xx`,
    );
    return result;
  };

  before(async () => {
    const missing = missingPackages();
    if (missing) throw new Error(`${missing}; .ci/run installs them`);
    if (process.getuid?.() !== 0)
      throw new Error('the Galera test runs as root: its nodes run as the mysql user, in folders it makes for them');
    cluster = await startGaleraCluster({ log: (line) => console.log(`# ${line}`) });
    await cluster.createDatabase(DATABASE);
    const env = (node: GaleraNode) => ({
      DATABASE_URL: cluster.url(node, DATABASE),
      JWT_SECRET: TEST_JWT_SECRET,
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      RATE_LIMIT_PER_MINUTE: '1000000',
      RATE_LIMIT_TOKEN_PER_MINUTE: '100000',
      // The webhook check's receiver listens on 127.0.0.1.
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    });
    // All three start at once, each against its own node: the migrations must run once.
    const names = ['A', 'B', 'C'];
    const services = await Promise.all(cluster.nodes.map((node, i) => startService(names[i], env(node))));
    instances = services.map((service, i) => ({ name: names[i], node: cluster.nodes[i], service }));

    gbp = (await call(a(), 'GET', '/api/sys/currencies?Currency_Code=GBP')).body.Records[0].Id;
    uk = (await call(a(), 'GET', '/api/sys/countries?Country_TwoDigitsCode=GB')).body.Records[0].Id;
    business = await created(a(), '/api/sys/businesses', { Name: 'Galera Works', CurrencyId: gbp, CountryId: uk });
    tariffs = [];
    for (const name of ['Hot desk', 'Fixed desk', 'Studio'])
      tariffs.push(await created(a(), '/api/billing/tariffs', { BusinessId: business, Name: name, Price: 100, CurrencyId: gbp }));
  });

  after(async () => {
    await Promise.all(instances.map((instance) => instance.service.stop()));
    // The errors the instances logged (a 5xx logs one), for a failure's reader.
    for (const instance of instances) {
      const errors = instance.service
        .output()
        .split('\n')
        .filter((line) => /"level":(50|60)/.test(line));
      if (errors.length) console.log(`# ${instance.name} logged ${errors.length} errors, first: ${errors.slice(0, 2).join('\n# ')}`);
    }
    await cluster?.destroy();
    console.log(`# figures: ${tally.requests} requests; by status ${JSON.stringify(Object.fromEntries(tally.statuses))}`);
  });

  it('the instances, started together against three nodes, ran the migrations once and made one administrator', async () => {
    const connection = await mysql.createConnection(cluster.url(cluster.nodes[2], DATABASE));
    try {
      const [applied] = await connection.query<mysql.RowDataPacket[]>('SELECT name FROM migrations');
      const names = applied.map((row) => row.name as string);
      assert.ok(names.length >= 7);
      assert.deepEqual(names, [...new Set(names)]);
      const [[lock]] = await connection.query<mysql.RowDataPacket[]>('SELECT Owner, Migration FROM migration_lock');
      assert.deepEqual({ ...lock }, { Owner: null, Migration: null });
    } finally {
      await connection.end();
    }
    const users = await call(instances[2], 'GET', '/api/sys/users?size=100');
    assert.equal(users.body.Records.filter((user: { Email: string }) => user.Email === ADMIN.email).length, 1);
  });

  it('45 parallel sales of a stock of 10 through three nodes: exactly 10 sold, 35 refused', async (context) => {
    await measured(context, async () => {
      const buyers = [
        await created(a(), '/api/spaces/coworkers', { BusinessId: business, FullName: 'Buyer One', Email: 'buyer.one@example.com' }),
        await created(a(), '/api/spaces/coworkers', { BusinessId: business, FullName: 'Buyer Two', Email: 'buyer.two@example.com' }),
      ];
      const product = await created(a(), '/api/billing/products', {
        BusinessId: business,
        Name: 'Scarce pass',
        SystemProductType: 1,
        Description: 'Ten only',
        DisplayOrder: 0,
        Price: 25,
        CurrencyId: gbp,
        AvailableAs: 3,
        TrackStock: true,
        CurrentStock: 10,
      });
      const results = await across(45, (instance, i) =>
        call(instance, 'POST', '/api/billing/coworkerproducts', { json: { CoworkerId: buyers[i % 2], ProductId: product } }),
      );
      assert.deepEqual(serverErrors(results), []);
      const statuses = results.map((r) => r.status);
      assert.equal(statuses.filter((s) => s === 200).length, 10, statuses.join());
      assert.equal(statuses.filter((s) => s === 400).length, 35, statuses.join());
      for (const instance of instances) {
        assert.equal(
          (await call(instance, 'GET', `/api/billing/products/${product}`)).body.CurrentStock,
          0,
          `stock read on ${instance.name}`,
        );
      }
      const sales = (await call(instances[1], 'GET', `/api/billing/coworkerproducts?CoworkerProduct_Product=${product}&size=100`)).body
        .Records;
      assert.equal(sales.length, 10);
      // Each sale took the product's turn (docs/architecture.md §7, "Row turns"), one per Version.
      const connection = await mysql.createConnection(cluster.url(cluster.nodes[1], DATABASE));
      try {
        const [turns] = await connection.query<mysql.RowDataPacket[]>(
          "SELECT Turn FROM row_turn WHERE TableName = 'product' AND RowId = ? ORDER BY Turn",
          [product],
        );
        assert.deepEqual(
          turns.map((row) => Number(row.Turn)),
          Array.from({ length: 10 }, (_, i) => i + 2),
        );
      } finally {
        await connection.end();
      }
    });
  });

  it('30 parallel bookings of one slot through three nodes: exactly one made (three with allocation 3); credits never below zero', async (context) => {
    await measured(context, async () => {
      const type = await created(a(), '/api/spaces/resourcetypes', { BusinessId: business, Name: 'Galera rooms' });
      const booker = await created(a(), '/api/spaces/coworkers', {
        BusinessId: business,
        FullName: 'Galera Booker',
        Email: 'galera.booker@example.com',
      });
      const credit = await created(a(), '/api/billing/coworkerbookingcredits', {
        CoworkerId: booker,
        CaneBeUsedForBookings: true,
        TotalCredit: 25,
      });
      for (const allocation of [1, 3]) {
        const room = await created(a(), '/api/spaces/resources', {
          BusinessId: business,
          Name: `Galera room ${allocation}`,
          ResourceTypeId: type,
          Allocation: allocation,
          HourlyPrice: 4,
        });
        const results = await across(30, (instance) =>
          call(instance, 'POST', '/api/spaces/bookings', {
            json: { ResourceId: room, CoworkerId: booker, FromTime: '2031-05-05T09:00', ToTime: '2031-05-05T10:00' },
          }),
        );
        assert.deepEqual(serverErrors(results), []);
        const statuses = results.map((r) => r.status);
        assert.equal(statuses.filter((s) => s === 200).length, allocation, statuses.join());
        assert.equal(statuses.filter((s) => s === 400).length, 30 - allocation, statuses.join());
        for (const instance of instances) {
          const bookings = (await call(instance, 'GET', `/api/spaces/bookings?Booking_Resource=${room}`)).body;
          assert.equal(bookings.TotalItems, allocation, `bookings read on ${instance.name}`);
        }
      }
      const left = (await call(instances[2], 'GET', `/api/billing/coworkerbookingcredits/${credit}`)).body.RemainingCredit;
      assert.equal(left, 25 - 4 * 4, 'four bookings of 4 paid from the credit');
    });
  });

  it('30 parallel check-ins of one customer through three nodes: one check-in, one pass used (docs/presence.md)', async (context) => {
    await measured(context, async () => {
      const kind = await created(a(), '/api/billing/timepasses', {
        BusinessId: business,
        Name: 'Galera day pass',
        Price: 20,
        CurrencyId: gbp,
      });
      for (let round = 0; round < 2; round++) {
        const visitor = await created(a(), '/api/spaces/coworkers', {
          BusinessId: business,
          FullName: `Galera Visitor ${round}`,
          Email: `galera.visitor.${round}@example.com`,
        });
        await created(a(), '/api/billing/coworkertimepasses', {
          CoworkerId: visitor,
          BusinessId: business,
          TimePassId: kind,
          CreateMultiple: 5,
        });
        const results = await across(30, (instance) =>
          call(instance, 'POST', '/api/spaces/checkins', {
            json: { BusinessId: business, CoworkerId: visitor, FromTime: `2031-05-0${round + 6}T09:00` },
          }),
        );
        assert.deepEqual(serverErrors(results), []);
        const statuses = results.map((r) => r.status);
        assert.equal(statuses.filter((s) => s === 200).length, 1, statuses.join());
        assert.equal(statuses.filter((s) => s === 400).length, 29, statuses.join());
        for (const instance of instances) {
          const passes = (
            await call(instance, 'GET', `/api/billing/coworkertimepasses?CoworkerTimePass_Coworker=${visitor}&CoworkerTimePass_IsUsed=true`)
          ).body;
          assert.equal(passes.TotalItems, 1, `used passes read on ${instance.name}`);
          const open = (await call(instance, 'GET', `/api/spaces/checkins?Checkin_Coworker=${visitor}&Checkin_ToTime=null`)).body;
          assert.equal(open.TotalItems, 1, `open check-ins read on ${instance.name}`);
        }
      }
    });
  });

  it('10 parallel quarter payments of one invoice through three nodes: exactly 4 land, the invoice paid (docs/settlement.md)', async (context) => {
    await measured(context, async () => {
      const payer = await created(a(), '/api/spaces/coworkers', {
        BusinessId: business,
        FullName: 'Galera Payer',
        Email: 'galera.payer@example.com',
      });
      for (let round = 0; round < 3; round++) {
        const invoice = await created(a(), '/api/billing/coworkerinvoices', {
          BusinessId: business,
          CoworkerId: payer,
          CurrencyId: gbp,
          TotalAmount: 100,
          TaxAmount: 0,
        });
        const results = await across(10, (instance) =>
          call(instance, 'POST', '/api/billing/coworkerledgerentries', {
            json: { BusinessId: business, CoworkerId: payer, CoworkerInvoiceId: invoice, Credit: 25, Code: 'PAYM' },
          }),
        );
        assert.deepEqual(serverErrors(results), []);
        const statuses = results.map((r) => r.status);
        assert.deepEqual(
          [...statuses].sort(),
          [200, 200, 200, 200, 400, 400, 400, 400, 400, 400],
          results.map((r) => `${r.status} ${JSON.stringify(r.body)}`).join('\n'),
        );
        for (const refused of results.filter((r) => r.status === 400))
          assert.equal(refused.body.Errors[0].PropertyName, 'Credit', JSON.stringify(refused.body));
        const landed = results
          .filter((r) => r.status === 200)
          .map((r) => r.body.Value.Id as number)
          .sort((x, y) => x - y);
        for (const instance of instances) {
          const entries = (
            (await call(instance, 'GET', `/api/billing/coworkerledgerentries?CoworkerLedgerEntry_CoworkerInvoice=${invoice}&size=100`)).body
              .Records as Array<{ Id: number; TransactionDate: string; Code: string }>
          ).filter((entry) => entry.Code === 'PAYM'); // not the invoice's own INV entry
          assert.deepEqual(
            entries.map((entry) => entry.Id).sort((x, y) => x - y),
            landed,
            `the acknowledged payments, read on ${instance.name}`,
          );
          const { PaidAmount, DueAmount, Paid, PaidOn } = (await call(instance, 'GET', `/api/billing/coworkerinvoices/${invoice}`)).body;
          assert.deepEqual(
            { PaidAmount, DueAmount, Paid, PaidOn },
            {
              PaidAmount: 100,
              DueAmount: 0,
              Paid: true,
              PaidOn: entries
                .map((entry) => entry.TransactionDate)
                .sort()
                .at(-1),
            },
            `invoice read on ${instance.name}`,
          );
        }
      }
      // The running Balance of every entry is the sum up to it.
      const all = (await call(instances[1], 'GET', `/api/billing/coworkerledgerentries?CoworkerLedgerEntry_Coworker=${payer}&size=1000`))
        .body.Records as Array<{ Id: number; TransactionDate: string; Debit: number; Credit: number; Balance: number }>;
      all.sort((x, y) => x.TransactionDate.localeCompare(y.TransactionDate) || x.Id - y.Id);
      let balance = 0;
      for (const entry of all) assert.equal(entry.Balance, (balance += entry.Debit - entry.Credit), `Balance of entry ${entry.Id}`);
      // Three invoices (INV entries of 100 each) and their twelve payments: nothing owed.
      assert.deepEqual([all.length, balance], [15, 0]);
    });
  });

  it('VOID_INVOICE and PAY_COWORKER_INVOICE_MANUAL racing through two nodes: one wins, the state that of one serial order', async (context) => {
    await measured(context, async () => {
      const payer = await created(a(), '/api/spaces/coworkers', {
        BusinessId: business,
        FullName: 'Galera Voider',
        Email: 'galera.voider@example.com',
      });
      const command = (instance: Instance, Key: string, id: number) =>
        call(instance, 'POST', '/api/billing/coworkerinvoices/runcommand', { json: { Key, Ids: [id] } });
      for (let round = 0; round < 6; round++) {
        const invoice = await created(a(), '/api/billing/coworkerinvoices', {
          BusinessId: business,
          CoworkerId: payer,
          CurrencyId: gbp,
          TotalAmount: 40,
          TaxAmount: 0,
        });
        const [voiding, paying] = await Promise.all([
          command(instances[round % 3], 'VOID_INVOICE', invoice),
          command(instances[(round + 1) % 3], 'PAY_COWORKER_INVOICE_MANUAL', invoice),
        ]);
        assert.deepEqual(serverErrors([voiding, paying]), []);
        assert.equal(
          [voiding.body.WasSuccessful, paying.body.WasSuccessful].filter(Boolean).length,
          1,
          `${JSON.stringify(voiding.body)} ${JSON.stringify(paying.body)}`,
        );
        const entries = (
          (await call(instances[2], 'GET', `/api/billing/coworkerledgerentries?CoworkerLedgerEntry_CoworkerInvoice=${invoice}`)).body
            .Records as Array<{ TransactionDate: string; Code: string }>
        ).filter((entry) => entry.Code === 'PAYM'); // not the service's INV and VOID entries
        const { Void, PaidAmount, DueAmount, Paid, PaidOn } = (
          await call(instances[(round + 2) % 3], 'GET', `/api/billing/coworkerinvoices/${invoice}`)
        ).body;
        assert.deepEqual(
          { Void, PaidAmount, DueAmount, Paid, PaidOn, entries: entries.length },
          voiding.body.WasSuccessful
            ? { Void: true, PaidAmount: 0, DueAmount: 0, Paid: false, PaidOn: null, entries: 0 }
            : { Void: false, PaidAmount: 40, DueAmount: 0, Paid: true, PaidOn: entries[0]?.TransactionDate, entries: 1 },
        );
      }
    });
  });

  // Two businesses' series at once, 30 issues each spread over the three nodes: a counter read on a node
  // that has not yet applied another node's commit must end in a conflict that is run again, never in a
  // duplicate number (a 500) or a gap (docs/billing.md, "Exactly once").
  it('30 customer invoices issued in parallel through three nodes get the numbers 1..30, in two businesses at once', async (context) => {
    await measured(context, async () => {
      const shops: Array<{ shop: number; buyer: number }> = [];
      for (const name of ['Galera Invoices', 'Galera Invoices Two']) {
        const shop = await created(a(), '/api/sys/businesses', { Name: name, CurrencyId: gbp, CountryId: uk });
        shops.push({
          shop,
          buyer: await created(a(), '/api/spaces/coworkers', {
            BusinessId: shop,
            FullName: `Invoiced Customer of ${name}`,
            Email: `invoiced.${shop}@example.com`,
          }),
        });
      }
      const results = await across(60, (instance, i) => {
        const { shop, buyer } = shops[i % 2];
        return call(instance, 'POST', '/api/billing/coworkerinvoices', { json: { BusinessId: shop, CoworkerId: buyer, CurrencyId: gbp } });
      });
      assert.deepEqual(serverErrors(results), []);
      for (const res of results) assert.equal(res.status, 200, JSON.stringify(res.body));
      for (const { shop } of shops) {
        const records = (await call(instances[2], 'GET', `/api/billing/coworkerinvoices?CoworkerInvoice_Business=${shop}&size=100`)).body
          .Records as Array<{ InvoiceNumber: string }>;
        assert.deepEqual(
          records.map((r) => Number(r.InvoiceNumber)).sort((x, y) => x - y),
          Array.from({ length: 30 }, (_, i) => i + 1),
        );
      }
    });
  });

  // Four customers at once, each made through node 1 and billed the moment it is made by 24 runs through the
  // three nodes (the command, and the raise route every tenth): the runs race each other across nodes, and
  // a node may not yet have applied the customer's sales when a run reaches it (docs/billing.md, "Exactly once").
  it('billing runs for one customer through three nodes at once bill each item once, for four customers at once (docs/billing.md, "Exactly once")', async (context) => {
    await measured(context, async () => {
      const shop = await created(a(), '/api/sys/businesses', { Name: 'Galera Billing', CurrencyId: gbp, CountryId: uk });
      const tariff = await created(a(), '/api/billing/tariffs', { BusinessId: shop, Name: 'Billed desk', Price: 100, CurrencyId: gbp });
      const product = await created(a(), '/api/billing/products', {
        BusinessId: shop,
        Name: 'Coffee',
        SystemProductType: 3,
        Description: 'A cup',
        DisplayOrder: 0,
        Price: 2.5,
        CurrencyId: gbp,
        AvailableAs: 3,
      });
      const start = new Date(Date.now() - 40 * 86_400_000).toISOString().slice(0, 10);
      const billed = await Promise.all(
        Array.from({ length: 4 }, async (_, c) => {
          const customer = await created(a(), '/api/spaces/coworkers', {
            BusinessId: shop,
            FullName: `Billed Customer ${c}`,
            Email: `billed.${c}@example.com`,
          });
          await created(a(), '/api/billing/coworkercontracts', { CoworkerId: customer, TariffId: tariff, StartDate: start, BillingDay: 1 });
          for (let i = 0; i < 3; i++)
            await created(a(), '/api/billing/coworkerproducts', { CoworkerId: customer, ProductId: product, SaleDate: start });
          // Everything due up to today, as the raise route bills.
          const run = { Key: 'COWORKER_BILL_RUN', Ids: [customer] };
          const results = await across(24, (instance, i) =>
            i % 10 === 9
              ? call(instance, 'POST', `/api/billing/coworkerinvoices/${shop}/create/${customer}`, { json: {} })
              : call(instance, 'POST', '/api/spaces/coworkers/runcommand', { json: run }),
          );
          return { customer, results };
        }),
      );
      const numbers: number[] = [];
      for (const { customer, results } of billed) {
        assert.deepEqual(serverErrors(results), []);
        for (const res of results)
          assert.ok(res.body.WasSuccessful || res.body.Message === 'Nothing to invoice.', JSON.stringify(res.body));
        const invoices = (await call(instances[1], 'GET', `/api/billing/coworkerinvoices?CoworkerInvoice_Coworker=${customer}&size=100`))
          .body.Records as Array<{ Id: number; InvoiceNumber: string }>;
        const lines = [];
        for (const invoice of invoices)
          lines.push(
            ...(
              await call(
                instances[2],
                'GET',
                `/api/billing/coworkerinvoicelines?CoworkerInvoiceLine_CoworkerInvoice=${invoice.Id}&size=100`,
              )
            ).body.Records,
          );
        // The first run to commit billed everything; every other one found nothing left.
        assert.equal(invoices.length, 1, `customer ${customer}: ${JSON.stringify(invoices)}`);
        numbers.push(Number(invoices[0].InvoiceNumber));
        const keys = lines.map((line: any) => `${line.CoworkerContractUniqueId ?? line.CoworkerProductUniqueId}/${line.PeriodFrom}`);
        assert.equal(new Set(keys).size, keys.length, 'no item billed twice');
        assert.equal(lines.filter((line: any) => line.CoworkerProductUniqueId).length, 3);
        assert.ok(lines.filter((line: any) => line.CoworkerContractUniqueId).length >= 2, 'the short first period and the next one');
      }
      assert.deepEqual(
        numbers.sort((x, y) => x - y),
        [1, 2, 3, 4],
        "the business's numbers, gapless",
      );
    });
  });

  it('30 parallel waiting-list joins by one customer through three nodes leave one entry', async (context) => {
    await measured(context, async () => {
      const email = 'waiting.racer@example.com';
      await created(a(), '/api/spaces/coworkers', {
        BusinessId: business,
        FullName: 'Waiting Racer',
        Email: email,
        CreateUser: true,
        Password: CUSTOMER_PASSWORD,
      });
      const token = await call(a(), 'POST', '/api/token', {
        auth: null,
        form: { grant_type: 'password', username: email, password: CUSTOMER_PASSWORD },
      });
      assert.equal(token.status, 200, JSON.stringify(token.body));
      const start = new Date(Date.now() + 7 * 86_400_000);
      start.setUTCMilliseconds(0);
      const end = new Date(start.getTime() + 7_200_000);
      const event = await created(a(), '/api/content/calendarevents', {
        BusinessId: business,
        Name: 'Full studio',
        StartDate: start.toISOString().replace('.000', ''),
        EndDate: end.toISOString().replace('.000', ''),
        Allocation: 1,
        EnableWaitList: true,
      });
      await created(a(), '/api/content/eventattendees', { CalendarEventId: event, FullName: 'Grace Hopper', Email: 'grace@example.com' });
      const results = await across(30, (instance) =>
        call(instance, 'POST', `/api/public/events/${event}/joinWaitingList`, { auth: `Bearer ${token.body.access_token}`, json: {} }),
      );
      assert.deepEqual(serverErrors(results), []);
      assert.equal(results.filter((r) => r.status === 200).length, 1, results.map((r) => r.status).join());
      assert.ok(
        results.every((r) => r.status === 200 || r.status === 400),
        results.map((r) => r.status).join(),
      );
      const waiting = (await call(instances[1], 'GET', `/api/content/eventwaitingattendees?EventWaitingAttendee_CalendarEvent=${event}`))
        .body.Records;
      assert.equal(waiting.length, 1);
    });
  });

  it('21 parallel refreshes of one refresh token through three nodes: one winner', async (context) => {
    await measured(context, async () => {
      const issued = await call(a(), 'POST', '/api/token', {
        auth: null,
        form: { grant_type: 'password', username: ADMIN.email, password: ADMIN.password, client_id: 'galera-race' },
      });
      assert.equal(issued.status, 200, JSON.stringify(issued.body));
      const results = await across(21, (instance) =>
        call(instance, 'POST', '/api/token', {
          auth: null,
          form: { grant_type: 'refresh_token', refresh_token: issued.body.refresh_token, client_id: 'galera-race' },
        }),
      );
      assert.deepEqual(serverErrors(results), []);
      assert.equal(results.filter((r) => r.status === 200).length, 1, results.map((r) => r.status).join());
      assert.ok(results.every((r) => r.status === 200 || r.body.error === 'invalid_grant'));
      // The spend took the token row's one turn (docs/architecture.md §7, "Row turns").
      const connection = await mysql.createConnection(cluster.url(cluster.nodes[2], DATABASE));
      try {
        const [turns] = await connection.query<mysql.RowDataPacket[]>(
          "SELECT COUNT(*) AS n FROM row_turn WHERE TableName = 'refresh_token' AND RowId = " +
            '(SELECT Id FROM refresh_token WHERE UsedOn IS NOT NULL ORDER BY Id DESC LIMIT 1) AND Turn = 1',
        );
        assert.equal(Number(turns[0].n), 1);
      } finally {
        await connection.end();
      }
    });
  });

  it('parallel creates and updates with id lists through three nodes: no 5xx, each list stored whole', async (context) => {
    await measured(context, async () => {
      const product = (i: number) => ({
        BusinessId: business,
        Name: `Tariffed ${i}`,
        SystemProductType: 1,
        Description: 'With tariffs',
        DisplayOrder: 0,
        Price: 10,
        CurrencyId: gbp,
        AvailableAs: 3,
        Tariffs: i % 2 ? [tariffs[0], tariffs[1]] : [tariffs[1], tariffs[2]],
      });
      const creates = await across(30, (instance, i) => call(instance, 'POST', '/api/billing/products', { json: product(i) }));
      assert.deepEqual(serverErrors(creates), []);
      for (const [i, res] of creates.entries()) {
        assert.equal(res.status, 200, JSON.stringify(res.body));
        // Read back through the next node.
        const read = await call(instances[(i + 1) % instances.length], 'GET', `/api/billing/products/${res.body.Value.Id}`);
        assert.deepEqual(read.body.Tariffs, product(i).Tariffs);
      }
      const id = creates[0].body.Value.Id as number;
      const lists = [[tariffs[0]], [tariffs[1], tariffs[2]], [tariffs[0], tariffs[2]], []];
      const updates = await across(30, (instance, i) =>
        call(instance, 'PUT', '/api/billing/products', { json: { ...product(0), Id: id, Tariffs: lists[i % lists.length] } }),
      );
      assert.deepEqual(serverErrors(updates), []);
      assert.ok(
        updates.every((r) => r.status === 200),
        updates
          .map((r) => `${r.status} ${JSON.stringify(r.body)}`)
          .slice(0, 3)
          .join(' | '),
      );
      const stored = (await call(a(), 'GET', `/api/billing/products/${id}`)).body.Tariffs;
      assert.ok(
        lists.some((list) => JSON.stringify(list) === JSON.stringify(stored)),
        `stored ${JSON.stringify(stored)}`,
      );
    });
  });

  it('one Idempotency-Key sent through three nodes at once makes one write', async (context) => {
    await measured(context, async () => {
      const name = `Idempotent ${Date.now()}`;
      const send = (instance: Instance) =>
        call(instance, 'POST', '/api/sys/businesses', {
          json: { Name: name, CurrencyId: gbp, CountryId: uk },
          headers: { 'idempotency-key': `galera-${name}` },
        });
      const results = await across(12, send);
      assert.deepEqual(serverErrors(results), []);
      assert.ok(
        results.every((r) => r.status === 200 || r.status === 409),
        results.map((r) => r.status).join(),
      );
      const listed = (await call(a(), 'GET', `/api/sys/businesses?size=1000`)).body.Records.filter(
        (b: { Name: string }) => b.Name === name,
      );
      assert.equal(listed.length, 1, 'one record');
      const replay = await send(instances[2]);
      assert.equal(replay.status, 200);
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      assert.equal(replay.body.Value.Id, listed[0].Id);
    });
  });
  it('webhook deliveries claimed by three instances on three nodes: each change delivered once', async (context) => {
    await measured(context, async () => {
      const hits: string[] = [];
      const receiver = createServer((request, response) => {
        hits.push(String(request.headers['webhook-id']));
        request.resume();
        request.on('end', () => response.end('ok'));
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      try {
        const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
        await created(a(), '/api/sys/webhooks', { BusinessId: business, Name: 'Galera products', Action: 81, URL: url });
        const creates = await across(30, (instance, i) =>
          call(instance, 'POST', '/api/billing/products', {
            json: {
              BusinessId: business,
              Name: `Hooked ${i}`,
              SystemProductType: 1,
              Description: 'Delivered once',
              DisplayOrder: 0,
              Price: 5,
              CurrencyId: gbp,
              AvailableAs: 3,
            },
          }),
        );
        assert.deepEqual(serverErrors(creates), []);
        for (let waited = 0; new Set(hits).size < 30 && waited < 30_000; waited += 200) await sleep(200);
        assert.equal(new Set(hits).size, 30, `${new Set(hits).size} of 30 changes delivered`);
        await sleep(1000);
        assert.equal(hits.length, 30, 'no delivery attempted twice');
      } finally {
        receiver.close();
      }
    });
  });

  it('a node stopped under load: only the instance on it answers 503, and it recovers when the node rejoins', async (context) => {
    const lost = instances[2];
    const results: Array<{ instance: string; status: number; sentAt: number }> = [];
    let running = true;
    const worker = async (instance: Instance, w: number) => {
      for (let n = 0; running; n++) {
        const sentAt = Date.now();
        const res =
          n % 2
            ? await call(instance, 'GET', `/api/sys/businesses?size=5`)
            : await call(instance, 'POST', '/api/sys/businesses', {
                json: { Name: `Load ${instance.name}-${w}-${n}`, CurrencyId: gbp, CountryId: uk },
              });
        results.push({ instance: instance.name, status: res.status, sentAt });
        if (res.status === 503) await sleep(50);
      }
    };
    const stayed = cluster.nodes.filter((node) => node !== lost.node);
    const conflictsBefore = await conflicts(stayed);
    const load = Promise.all(instances.flatMap((instance) => [worker(instance, 1), worker(instance, 2)]));
    await sleep(2000);

    const stoppedAt = Date.now();
    await cluster.stopNode(lost.node);
    const nodeGoneAfter = Date.now() - stoppedAt;
    await sleep(3000);
    const restartedAt = Date.now();
    await cluster.startNode(lost.node);
    const syncedAt = Date.now();
    let recoveredAt = 0;
    while (!recoveredAt) {
      if ((await fetch(`${lost.service.url}/health`).catch(() => undefined))?.status === 200) recoveredAt = Date.now();
      else await sleep(100);
      assert.ok(Date.now() - syncedAt < 30_000, 'C healthy within 30 s of its node rejoining');
    }
    await sleep(2000);
    running = false;
    await load;
    const conflictsDuring = (await conflicts(stayed)) - conflictsBefore;

    const of = (name: string) => results.filter((r) => r.instance === name);
    const count = (list: typeof results, status: number) => list.filter((r) => r.status === status).length;
    context.diagnostic(
      `${results.length} requests under load; node3 stopped in ${nodeGoneAfter} ms, down ${restartedAt - stoppedAt} ms, rejoined (synced) ${syncedAt - restartedAt} ms after its start; ` +
        `C healthy ${recoveredAt - syncedAt} ms after that (${recoveredAt - stoppedAt} ms after the stop); ` +
        `A: ${of('A').length} (${count(of('A'), 200)} × 200), B: ${of('B').length} (${count(of('B'), 200)} × 200), C: ${of('C').length} (${count(of('C'), 200)} × 200, ${count(of('C'), 503)} × 503); ` +
        `${conflictsDuring} certification conflicts on the nodes that stayed`,
    );
    for (const name of ['A', 'B']) {
      assert.deepEqual(
        of(name)
          .filter((r) => r.status !== 200)
          .map((r) => r.status),
        [],
        `${name} (its node stayed) answered every request`,
      );
    }
    assert.deepEqual(
      of('C')
        .filter((r) => r.status !== 200 && r.status !== 503)
        .map((r) => r.status),
      [],
      'C answers 200 or 503, nothing else',
    );
    assert.ok(count(of('C'), 503) > 0, 'C answered 503 while its node was away');
    assert.deepEqual(
      of('C')
        .filter((r) => r.sentAt > recoveredAt + 500 && r.status !== 200)
        .map((r) => r.status),
      [],
      'C answers again once recovered',
    );
    assert.ok(of('C').filter((r) => r.sentAt > recoveredAt + 500).length > 0);
  });

  function countServerErrors(): number {
    let sum = 0;
    for (const [status, n] of tally.statuses) if (status >= 500 || status === 0) sum += n;
    return sum;
  }
});
