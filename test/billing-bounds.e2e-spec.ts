import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { BillingRunWorker } from '../src/billing/billing-runs/billing-run.worker.js';
import { DueItemSources } from '../src/billing/due-items/due-items.js';
import { asPreviewLine as pick, billRun, createProduct, linesOf } from './support/billing-fixtures.js';
import { createUser } from './support/auth.js';
import { create, createBusinesses, createCoworker, createTariff } from './support/fixtures.js';
import { errorNames, refused } from './support/record-checks.js';
import { appPerSuite, basicAuth, type TestApp } from './support/test-app.js';

// Bounds of billing (docs/api.md §9.1 "Bounds", docs/billing.md "Bounds"): bounded billing dates and
// booking times, at most 1,000 lines on an invoice a run makes (the earliest; the rest waits for the
// next run), stored records with dates out of bounds billed in turn, and a run's record written when it
// starts. Also the PricePlan and RepeatFrom rules of recurring sales.

const TABLES = [
  'coworkercontract',
  'contractproduct',
  'coworkerproduct',
  'booking',
  'coworkerinvoice',
  'coworkerinvoiceline',
  'billingrun',
  'change_log',
];
const CAPPED = 'Only the first 1,000 due lines were billed; the rest waits for the next run.';
const SUCCESS = 'The command was run correctly.';
/** Out of bounds, each a valid date-time of docs/api.md §1. */
const OUT_OF_BOUNDS = ['1000-01-01', '1999-12-31T23:59:00Z', '2100-01-01', '9999-12-31'];

const invoicesOf = async (t: TestApp, customer: number) =>
  ((await t.get(`/api/billing/coworkerinvoices?size=1000`)).body.Records as Array<Record<string, any>>)
    .filter((invoice) => invoice.CoworkerId === customer)
    .sort((a, b) => a.Id - b.Id);

const day = (wire: string) => wire.slice(0, 10);
const dayAfter = (wire: string) => new Date(Date.parse(wire) + 86_400_000).toISOString().slice(0, 10);

/** Every line billed from one source, checked to be billed once each and with no gap: their first days in order. */
async function billedDays(t: TestApp, invoiceIds: number[], source: string, column: string): Promise<string[]> {
  const lines = (await Promise.all(invoiceIds.map((id) => linesOf(t, id)))).flat().filter((line) => line[column] === source);
  const keys = lines.map((line) => `${line[column]}/${line.PeriodFrom}`);
  assert.equal(new Set(keys).size, keys.length, 'a line billed twice');
  for (let i = 1; i < lines.length; i++)
    assert.equal(day(lines[i].PeriodFrom), dayAfter(lines[i - 1].PeriodTo), `a gap or an overlap before line ${i}`);
  return lines.map((line) => day(line.PeriodFrom));
}

describe('Billing bounds', () => {
  // A run writing 1,000 lines takes longer than the default answer deadline (10 s) on a busy MariaDB test server.
  const t = appPerSuite({ BILLING_RUN_INTERVAL_SECONDS: '0', REQUEST_TIMEOUT_MS: '120000' });
  let business: number;
  let tariff: number;
  let product: number;

  before(async () => {
    [business] = await createBusinesses(t, 'Bounded Works');
    tariff = await createTariff(t, business, { Name: 'Resident desk', Price: 100 });
    product = await createProduct(t, business, { Name: 'Locker', Price: 2 });
  });

  /** Stores a date in a record's column directly, as a record stored before the bounds would hold it. */
  const store = async (table: string, id: number, values: Record<string, string>) => {
    const columns = Object.keys(values);
    await t.db.query(
      `UPDATE ${t.db.id(table)} SET ${columns.map((column) => `${t.db.id(column)} = ?`).join(', ')} WHERE ${t.db.id('Id')} = ?`,
      [...columns.map((column) => t.db.dateParam(new Date(`${values[column]}T00:00:00Z`))), id],
    );
  };

  /** A stored date column's day (InvoicedPeriod of a sale is not on the wire). */
  const storedDay = async (table: string, id: number, column: string): Promise<string> => {
    const [row] = await t.db.query(`SELECT ${t.db.id(column)} AS d FROM ${t.db.id(table)} WHERE ${t.db.id('Id')} = ?`, [id]);
    return row.d instanceof Date ? row.d.toISOString().slice(0, 10) : String(row.d).slice(0, 10);
  };

  describe('bounded dates', () => {
    it('a preview or run up to 9999-12-31 (or any Until outside 2000–2099) by a restricted administrator is refused naming Until; nothing written, the instance answers on', async () => {
      const customer = await createCoworker(t, business);
      await create(t, '/api/billing/coworkercontracts', { CoworkerId: customer, TariffId: tariff, StartDate: '2025-01-01', BillingDay: 1 });
      await createUser(t, {
        Email: 'bounded-biller@example.com',
        Password: 'a-long-password-9',
        Roles: ['CoworkerInvoice-Create'],
        Businesses: [business],
      });
      const biller = basicAuth('bounded-biller@example.com', 'a-long-password-9');
      for (const until of ['9999-12-31', '1999-12-31', '2100-01-01', '1000-01-01']) {
        for (const preview of [true, false]) {
          const res = await refused(t, TABLES, 200, () => billRun(t, [customer], until, preview, biller));
          assert.equal(res.body.WasSuccessful, false, `${until}: ${JSON.stringify(res.body)}`);
          assert.equal(res.body.Status, 400);
          assert.match(res.body.Message, /^Until: /);
        }
      }
      assert.equal((await t.get(`/api/spaces/coworkers/${customer}`)).status, 200);
      // The bounds themselves are allowed.
      for (const until of ['2000-01-01', '2099-12-31'])
        assert.equal((await billRun(t, [customer], until, true, biller)).body.WasSuccessful, true, until);
    });

    it('each billing date of a contract, contract product and sale outside 2000-01-01 to 2099-12-31 is a 400 naming it, on create and update, changing nothing', async () => {
      const customer = await createCoworker(t, business);
      const contract = await create(t, '/api/billing/coworkercontracts', {
        CoworkerId: customer,
        TariffId: tariff,
        StartDate: '2025-01-01',
      });
      const cp = await create(t, '/api/billing/contractproducts', { CoworkerContractId: contract, ProductId: product });
      const sale = await create(t, '/api/billing/coworkerproducts', {
        CoworkerId: customer,
        ProductId: product,
        RegularCharge: true,
        RepeatCycle: 4,
        SaleDate: '2025-01-01',
      });
      const kinds: Array<[string, number, Record<string, unknown>, string[]]> = [
        [
          '/api/billing/coworkercontracts',
          contract,
          { CoworkerId: customer, TariffId: tariff, StartDate: '2025-01-01' },
          ['StartDate', 'CancellationDate'],
        ],
        ['/api/billing/contractproducts', cp, { CoworkerContractId: contract, ProductId: product }, ['RepeatFrom', 'RepeatUntil']],
        [
          '/api/billing/coworkerproducts',
          sale,
          { CoworkerId: customer, ProductId: product, RegularCharge: true, RepeatCycle: 2, SaleDate: '2025-01-01' },
          ['SaleDate', 'RepeatFrom', 'RepeatUntil'],
        ],
      ];
      for (const [path, id, body, fields] of kinds) {
        const stored = (await t.get(`${path}/${id}`)).body;
        for (const field of fields) {
          for (const value of OUT_OF_BOUNDS) {
            const made = await refused(t, TABLES, 400, () => t.post(path, { ...body, [field]: value }));
            assert.deepEqual(errorNames(made.body), [field], `${path} ${field} ${value}: ${JSON.stringify(made.body)}`);
            const changed = await refused(t, TABLES, 400, () => t.put(`${path}/${id}`, { ...stored, [field]: value }));
            assert.deepEqual(errorNames(changed.body), [field], `${path}/${id} ${field} ${value}`);
          }
        }
      }
      // The first and the last day are inside.
      const edges = await create(t, '/api/billing/coworkerproducts', {
        CoworkerId: customer,
        ProductId: product,
        RegularCharge: true,
        RepeatCycle: 2,
        SaleDate: '2000-01-01',
        RepeatFrom: '2000-01-01',
        RepeatUntil: '2099-12-31T23:59:00Z',
      });
      const read = (await t.get(`/api/billing/coworkerproducts/${edges}`)).body;
      assert.deepEqual([read.RepeatFrom, read.RepeatUntil], ['2000-01-01T00:00:00Z', '2099-12-31T23:59:00Z']);
    });

    it('bookings: both times between 2000-01-01 and 2099-12-31 and at most 31 days apart, on create, move and /available (400 naming the field)', async () => {
      const type = await create(t, '/api/spaces/resourcetypes', { BusinessId: business, Name: 'Studio' });
      const studio = await create(t, '/api/spaces/resources', {
        BusinessId: business,
        Name: 'Studio',
        ResourceTypeId: type,
        HourlyPrice: 0,
      });
      const customer = await createCoworker(t, business);
      const body = (FromTime: string, ToTime: string) => ({ ResourceId: studio, CoworkerId: customer, FromTime, ToTime });
      const cases: Array<[string, string, string]> = [
        ['1999-12-31T23:00:00Z', '2000-01-01T01:00:00Z', 'FromTime'],
        ['1000-01-01T09:00:00Z', '1000-01-01T10:00:00Z', 'FromTime'],
        ['2099-12-31T23:00:00Z', '2100-01-01T00:00:00Z', 'ToTime'],
        ['9999-12-30T09:00:00Z', '9999-12-31T10:00:00Z', 'FromTime'],
        ['2030-01-01T09:00:00Z', '2030-02-01T09:01:00Z', 'ToTime'],
        ['2030-01-01T09:00:00Z', '2099-12-31T09:00:00Z', 'ToTime'],
      ];
      const booking = await create(t, '/api/spaces/bookings', body('2030-03-01T09:00:00Z', '2030-03-01T10:00:00Z'));
      const stored = (await t.get(`/api/spaces/bookings/${booking}`)).body;
      for (const [from, to, field] of cases) {
        const made = await refused(t, TABLES, 400, () => t.post('/api/spaces/bookings', body(from, to)));
        assert.ok(errorNames(made.body).includes(field), `${from} – ${to}: ${JSON.stringify(made.body)}`);
        const asked = await refused(t, TABLES, 400, () => t.post('/api/spaces/bookings/available', body(from, to)));
        assert.ok(errorNames(asked.body).includes(field), `available ${from} – ${to}: ${JSON.stringify(asked.body)}`);
        const moved = await refused(t, TABLES, 400, () =>
          t.put(`/api/spaces/bookings/${booking}`, { ...stored, FromTime: from, ToTime: to }),
        );
        assert.ok(errorNames(moved.body).includes(field), `move ${from} – ${to}: ${JSON.stringify(moved.body)}`);
      }
      // Exactly 31 days, and the first and last minutes of the bounds, are fine.
      assert.equal(
        (await t.post('/api/spaces/bookings/available', body('2030-01-01T09:00:00Z', '2030-02-01T09:00:00Z'))).body.Available,
        true,
      );
      await create(t, '/api/spaces/bookings', body('2030-01-01T09:00:00Z', '2030-02-01T09:00:00Z'));
      await create(t, '/api/spaces/bookings', body('2000-01-01T00:00:00Z', '2000-01-01T01:00:00Z'));
      await create(t, '/api/spaces/bookings', body('2099-12-31T22:00:00Z', '2099-12-31T23:59:00Z'));
    });
  });

  describe('at most 1,000 lines an invoice', () => {
    it('a stored daily sale from 1000-01-01: each run bills the next 1,000 days, named in the Message, none twice and none lost; the preview shows the same 1,000', async () => {
      const customer = await createCoworker(t, business);
      const sale = await create(t, '/api/billing/coworkerproducts', {
        CoworkerId: customer,
        ProductId: product,
        RegularCharge: true,
        RepeatCycle: 2,
        SaleDate: '2020-01-01',
      });
      await store('coworkerproduct', sale, { SaleDate: '1000-01-01', RepeatFrom: '1000-01-01' });
      const saleUid = (await t.get(`/api/billing/coworkerproducts/${sale}`)).body.UniqueId;

      const preview = await billRun(t, [customer], '2025-01-01', true);
      assert.equal(preview.body.WasSuccessful, true, JSON.stringify(preview.body).slice(0, 500));
      assert.equal(preview.body.Message, CAPPED);
      assert.equal(preview.body.Value.length, 1);
      assert.equal(preview.body.Value[0].Lines.length, 1000);

      const first = await billRun(t, [customer], '2025-01-01');
      assert.equal(first.body.Message, CAPPED);
      const firstLines = await linesOf(t, first.body.Value[0].Id);
      assert.equal(firstLines.length, 1000);
      assert.deepEqual(firstLines.map(pick), preview.body.Value[0].Lines, 'the run bills what the preview showed');
      assert.deepEqual([day(firstLines[0].PeriodFrom), day(firstLines[999].PeriodFrom)], ['1000-01-01', '1002-09-27']);
      assert.equal(await storedDay('coworkerproduct', sale, 'InvoicedPeriod'), '1002-09-28', 'billed up to the last line billed');

      const second = await billRun(t, [customer], '2025-01-01');
      assert.equal(second.body.Message, CAPPED);
      const secondLines = await linesOf(t, second.body.Value[0].Id);
      assert.equal(secondLines.length, 1000);
      assert.equal(day(secondLines[0].PeriodFrom), '1002-09-28');
      const days = await billedDays(t, [first.body.Value[0].Id, second.body.Value[0].Id], saleUid, 'CoworkerProductUniqueId');
      assert.equal(days.length, 2000);
    });

    it('the 1,000 earliest of several sources, by PeriodFrom then source; the rest (a one-off sale among them) on the next run, which says nothing of a limit once all fit', async () => {
      const customer = await createCoworker(t, business);
      const contract = await create(t, '/api/billing/coworkercontracts', {
        CoworkerId: customer,
        TariffId: tariff,
        StartDate: '2020-01-01',
        BillingDay: 1,
      });
      const daily = await create(t, '/api/billing/coworkerproducts', {
        CoworkerId: customer,
        ProductId: product,
        RegularCharge: true,
        RepeatCycle: 2,
        SaleDate: '2022-01-01',
      });
      const oneOff = await create(t, '/api/billing/coworkerproducts', { CoworkerId: customer, ProductId: product, SaleDate: '2024-11-01' });
      const until = '2024-12-31';
      const first = await billRun(t, [customer], until);
      assert.equal(first.body.Message, CAPPED);
      const lines = await linesOf(t, first.body.Value[0].Id);
      assert.equal(lines.length, 1000);
      // 24 months of 2020–2021, then 943 days and 31 months up to 2024-07-31 (998 lines), then on
      // 2024-08-01 the contract's period before the day's sale (the contract is the earlier source).
      const contractLines = lines.filter((line) => line.CoworkerContractUniqueId);
      const dailyLines = lines.filter((line) => line.CoworkerProductUniqueId);
      assert.deepEqual([contractLines.length, dailyLines.length], [56, 944]);
      assert.deepEqual([day(contractLines[55].PeriodFrom), day(dailyLines[943].PeriodFrom)], ['2024-08-01', '2024-08-01']);
      // On the invoice, lines keep the sources' order.
      assert.deepEqual(
        lines.slice(55, 57).map((line) => Boolean(line.CoworkerContractUniqueId)),
        [true, false],
      );
      assert.equal((await t.get(`/api/billing/coworkerproducts/${oneOff}`)).body.Invoiced, false, 'the one-off sale of 2024-11-01 waits');
      assert.equal((await t.get(`/api/billing/coworkercontracts/${contract}`)).body.InvoicedPeriod, '2024-09-01T00:00:00Z');
      assert.equal(await storedDay('coworkerproduct', daily, 'InvoicedPeriod'), '2024-08-02');

      const second = await billRun(t, [customer], until);
      assert.equal(second.body.Message, SUCCESS);
      assert.equal((await t.get(`/api/billing/coworkerproducts/${oneOff}`)).body.Invoiced, true);
      const ids = [first.body.Value[0].Id, second.body.Value[0].Id];
      const contractUid = (await t.get(`/api/billing/coworkercontracts/${contract}`)).body.UniqueId;
      const dailyUid = (await t.get(`/api/billing/coworkerproducts/${daily}`)).body.UniqueId;
      assert.equal((await billedDays(t, ids, contractUid, 'CoworkerContractUniqueId')).length, 60, 'Jan 2020 to Dec 2024, each once');
      assert.equal((await billedDays(t, ids, dailyUid, 'CoworkerProductUniqueId')).length, 1096, '2022-01-01 to 2024-12-31, each once');
      assert.deepEqual((await billRun(t, [customer], until)).body.Value, []);
    });

    it('the automatic run bills a stored contract from 1000-01-01 1,000 periods at a time, and the instance answers on', async () => {
      const [shop] = await createBusinesses(t, 'Ancient Works');
      const oldTariff = await createTariff(t, shop, { Name: 'Ancient desk', Price: 10 });
      const customer = await createCoworker(t, shop);
      const contract = await create(t, '/api/billing/coworkercontracts', {
        CoworkerId: customer,
        TariffId: oldTariff,
        StartDate: '2025-01-01',
        BillingDay: 1,
      });
      await store('coworkercontract', contract, { StartDate: '1000-01-01', RenewalDate: '1000-01-01' });
      const worker = t.app.get(BillingRunWorker);
      await worker.runOnce();
      const [first] = await invoicesOf(t, customer);
      const firstLines = await linesOf(t, first.Id);
      assert.equal(firstLines.length, 1000);
      assert.deepEqual([day(firstLines[0].PeriodFrom), day(firstLines[999].PeriodFrom)], ['1000-01-01', '1083-04-01']);
      const read = (await t.get(`/api/billing/coworkercontracts/${contract}`)).body;
      assert.deepEqual([read.InvoicedPeriod, read.RenewalDate], ['1083-05-01T00:00:00Z', '1083-05-01T00:00:00Z']);
      const runs = (await t.get('/api/billing/billingruns?size=1000')).body.Records.filter((run: any) => run.BusinessId === shop);
      assert.equal(runs.length, 1);
      assert.equal(runs[0].Trigger, 'Automatic');
      assert.ok(runs[0].FinishedOn, 'the run record is completed');
      assert.deepEqual(runs[0].InvoiceIds, [first.Id]);
      await worker.runOnce();
      const invoices = await invoicesOf(t, customer);
      assert.equal(invoices.length, 2);
      const days = await billedDays(
        t,
        invoices.map((invoice) => invoice.Id),
        read.UniqueId,
        'CoworkerContractUniqueId',
      );
      assert.deepEqual([days.length, days[1000]], [2000, '1083-05-01']);
      assert.equal((await t.get('/api/spaces/coworkers?size=1')).status, 200);
    });
  });

  describe('the run record', () => {
    it('is written when the run starts: a run that dies midway leaves it with FinishedOn null', async () => {
      const [shop] = await createBusinesses(t, 'Stalling Works');
      const shopProduct = await createProduct(t, shop, { Price: 4 });
      const billed = await createCoworker(t, shop);
      const dying = await createCoworker(t, shop);
      for (const customer of [billed, dying])
        await create(t, '/api/billing/coworkerproducts', { CoworkerId: customer, ProductId: shopProduct, SaleDate: '2025-01-02' });
      // The process dies while it works out what the second customer owes (an item source is where a
      // run spends its time): the error ends the run as a crash would, after its start.
      t.app.get(DueItemSources).register({
        name: 'Dies on one customer',
        order: 99,
        collect: async ({ customerIds }) => {
          if (customerIds.includes(dying)) throw new Error('the instance died here');
          return [];
        },
      });
      const before = Date.now();
      const res = await billRun(t, [billed, dying], '2025-01-31');
      assert.notEqual(res.body.WasSuccessful, true);
      const runs = (await t.get('/api/billing/billingruns?size=1000')).body.Records.filter((run: any) => run.BusinessId === shop);
      assert.equal(runs.length, 1, JSON.stringify(runs));
      assert.equal(runs[0].FinishedOn, null);
      assert.equal(runs[0].Trigger, 'Manual');
      assert.ok(Date.parse(runs[0].StartedOn) >= Math.floor(before / 1000) * 1000);
      assert.equal(runs[0].Until, '2025-01-31T00:00:00Z');
      // A run that ends completes its record.
      const done = await billRun(t, [billed], '2025-01-31');
      assert.equal(done.body.WasSuccessful, true);
      const finished = (await t.get('/api/billing/billingruns?size=1000')).body.Records.filter(
        (run: any) => run.BusinessId === shop && run.FinishedOn !== null,
      );
      assert.equal(finished.length, 1);
      assert.ok(Date.parse(finished[0].FinishedOn) >= Date.parse(finished[0].StartedOn));
    });
  });

  describe('recurring sales', () => {
    it('RepeatFrom defaults to the sale date, on a one-off sale and a recurring one', async () => {
      const customer = await createCoworker(t, business);
      const oneOff = await create(t, '/api/billing/coworkerproducts', {
        CoworkerId: customer,
        ProductId: product,
        SaleDate: '2025-03-04T10:30:00Z',
      });
      const recurring = await create(t, '/api/billing/coworkerproducts', {
        CoworkerId: customer,
        ProductId: product,
        SaleDate: '2025-03-05',
        RegularCharge: true,
        RepeatCycle: 4,
      });
      assert.equal((await t.get(`/api/billing/coworkerproducts/${oneOff}`)).body.RepeatFrom, '2025-03-04T10:30:00Z');
      assert.equal((await t.get(`/api/billing/coworkerproducts/${recurring}`)).body.RepeatFrom, '2025-03-05T00:00:00Z');
    });

    for (const [invoiceEvery, expected] of [
      [
        1,
        [
          '2090-01-01 – 2090-01-31',
          '2090-02-01 – 2090-02-28',
          '2090-03-01 – 2090-03-31',
          '2090-04-01 – 2090-04-30',
          '2090-05-01 – 2090-05-31',
          '2090-06-01 – 2090-06-30',
        ],
      ],
      [3, ['2090-01-01 – 2090-03-31', '2090-04-01 – 2090-06-30']],
    ] as const) {
      it(`PricePlan sales are billed with each due period of the main contract, InvoiceEvery ${invoiceEvery} (a contract yet to start included)`, async () => {
        const plan = await createTariff(t, business, { Name: `Plan ${invoiceEvery}`, Price: 90, InvoiceEvery: invoiceEvery });
        const monthly = await createTariff(t, business, { Name: 'Side desk', Price: 10, InvoiceEvery: 1 });
        const extra = await createProduct(t, business, { Name: `Plan extra ${invoiceEvery}`, Price: 5 });
        const customer = await createCoworker(t, business);
        // Another contract, not the main one, runs on another cycle.
        await create(t, '/api/billing/coworkercontracts', {
          CoworkerId: customer,
          TariffId: monthly,
          StartDate: '2089-11-15',
          BillingDay: 15,
        });
        await create(t, '/api/billing/coworkercontracts', {
          CoworkerId: customer,
          TariffId: plan,
          StartDate: '2090-01-01',
          BillingDay: 1,
          IsPrimaryContract: true,
        });
        const sale = await create(t, '/api/billing/coworkerproducts', {
          CoworkerId: customer,
          ProductId: extra,
          RegularCharge: true,
          RepeatCycle: 1,
          SaleDate: '2089-12-20',
        });
        const saleLines = (lines: Array<Record<string, any>>) =>
          lines
            .filter((line) => line.Description.startsWith('Plan extra'))
            .map((line) => line.Description.replace(/^Plan extra \d \((.*)\)$/, '$1'));

        const preview = await billRun(t, [customer], '2090-06-30', true);
        assert.deepEqual(saleLines(preview.body.Value[0].Lines), expected);
        const run = await billRun(t, [customer], '2090-06-30');
        const lines = await linesOf(t, run.body.Value[0].Id);
        assert.deepEqual(saleLines(lines), expected);
        assert.deepEqual(
          lines.filter((line) => line.Description.startsWith('Plan extra')).map((line) => [line.UnitPrice, line.TotalAmount]),
          expected.map(() => [5, 5]),
        );
        const next = expected[expected.length - 1].slice(-10);
        assert.equal(await storedDay('coworkerproduct', sale, 'InvoicedPeriod'), dayAfter(`${next}T00:00:00Z`));
        assert.deepEqual((await billRun(t, [customer], '2090-06-30')).body.Value, [], 'nothing billed twice');
      });
    }
  });
});
