import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { LocalDate } from '@js-joda/core';
import { BillingRunWorker } from '../src/billing/billing-runs/billing-run.worker.js';
import { BillingRunner } from '../src/billing/billing-runs/billing-runner.js';
import { BillingRunsService } from '../src/billing/billing-runs/billing-runs.service.js';
import type { WriteScope } from '../src/persistence/write-scope.js';
import { asPreviewLine as pick, billRun, createProduct, linesOf } from './support/billing-fixtures.js';
import { create, createBusinesses, createCoworker, createTariff } from './support/fixtures.js';
import { createUser } from './support/auth.js';
import { refused, tableRows } from './support/record-checks.js';
import { appPerSuite, basicAuth } from './support/test-app.js';

// Billing runs (docs/billing.md): what is due, billed exactly once, all or nothing per customer.

const BILLING_TABLES = [
  'coworkerinvoice',
  'coworkerinvoiceline',
  'coworkercontract',
  'contractproduct',
  'coworkerproduct',
  'invoice_sequence',
  'billingrun',
  'change_log',
];

describe('Billing runs', () => {
  const t = appPerSuite({ BILLING_RUN_INTERVAL_SECONDS: '0' });
  let business: number;
  let other: number;
  let vat: number;
  let reduced: number;

  before(async () => {
    [business, other] = await createBusinesses(t, 'Canal Works', 'Harbour Loft');
    vat = await create(t, '/api/sys/taxrates', { BusinessId: business, Name: 'VAT', Rate: 20 });
    reduced = await create(t, '/api/sys/taxrates', { BusinessId: business, Name: 'Reduced', Rate: 5 });
  });

  it('bills each kind of due item with exact amounts: a pro-rated first month, a contract product, a one-off sale, recurring sales', async () => {
    const tariff = await createTariff(t, business, { Name: 'Resident desk', Price: 100, TaxRateId: vat });
    const customer = await createCoworker(t, business, { FullName: 'Ada Lovelace' });
    const contract = await create(t, '/api/billing/coworkercontracts', {
      CoworkerId: customer,
      TariffId: tariff,
      StartDate: '2025-01-16',
      BillingDay: 1,
    });
    const locker = await createProduct(t, business, { Name: 'Locker', Price: 10.05, TaxRateId: reduced, ApplyProRating: true });
    const coffee = await createProduct(t, business, { Name: 'Coffee', Price: 2.5, InvoiceLineDisplayAs: 'Barista coffee' });
    const parking = await createProduct(t, business, { Name: 'Parking', Price: 30, TaxRateId: vat });
    const cp = await create(t, '/api/billing/contractproducts', { CoworkerContractId: contract, ProductId: locker, Quantity: 2 });
    const sale = await create(t, '/api/billing/coworkerproducts', {
      CoworkerId: customer,
      ProductId: coffee,
      Quantity: 3,
      SaleDate: '2025-02-03',
    });
    const later = await create(t, '/api/billing/coworkerproducts', { CoworkerId: customer, ProductId: coffee, SaleDate: '2025-02-11' });
    const monthly = await create(t, '/api/billing/coworkerproducts', {
      CoworkerId: customer,
      ProductId: parking,
      RegularCharge: true,
      RepeatCycle: 6,
      SaleDate: '2025-01-20',
    });

    const res = await billRun(t, [customer], '2025-02-10');
    assert.equal(res.status, 200);
    assert.equal(res.body.WasSuccessful, true, JSON.stringify(res.body));
    assert.equal(res.body.Value.length, 1);
    const made = res.body.Value[0];
    const invoice = (await t.get(`/api/billing/coworkerinvoices/${made.Id}`)).body;
    const lines = await linesOf(t, made.Id);
    const shown = lines.map((l) => [
      l.Description,
      l.Quantity,
      l.UnitPrice,
      l.SubTotal,
      l.TaxRate,
      l.TaxAmount,
      l.TotalAmount,
      l.PeriodFrom.slice(0, 10),
      l.PeriodTo.slice(0, 10),
    ]);
    assert.deepEqual(shown, [
      // 100 × 16/31 = 51.6129 → 51.61; VAT 10.322 → 10.32
      ['Resident desk (2025-01-16 – 2025-01-31)', 1, 51.61, 51.61, 20, 10.32, 61.93, '2025-01-16', '2025-01-31'],
      ['Resident desk (2025-02-01 – 2025-02-28)', 1, 100, 100, 20, 20, 120, '2025-02-01', '2025-02-28'],
      // 10.05 × 16/31 = 5.187 → 5.19 a unit, × 2 = 10.38; 5% = 0.519 → 0.52
      ['Locker (2025-01-16 – 2025-01-31)', 2, 5.19, 10.38, 5, 0.52, 10.9, '2025-01-16', '2025-01-31'],
      // 10.05 rounds to 10.05 (cents), × 2 = 20.10; 5% = 1.005 → 1.01 (half away from zero)
      ['Locker (2025-02-01 – 2025-02-28)', 2, 10.05, 20.1, 5, 1.01, 21.11, '2025-02-01', '2025-02-28'],
      ['Barista coffee (2025-02-03)', 3, 2.5, 7.5, 0, 0, 7.5, '2025-02-03', '2025-02-03'],
      ['Parking (2025-01-31 – 2025-02-27)', 1, 30, 30, 20, 6, 36, '2025-01-31', '2025-02-27'],
    ]);
    assert.deepEqual(
      lines.map((l) => l.Position),
      [1, 2, 3, 4, 5, 6],
    );
    assert.equal(invoice.TotalAmount, 257.44);
    assert.equal(invoice.TaxAmount, 37.85);
    assert.equal(made.TotalAmount, 257.44);
    assert.equal(invoice.DueAmount, 257.44);
    assert.equal(invoice.InvoiceFromDate, '2025-01-16T00:00:00Z');
    assert.equal(invoice.InvoiceToDate, '2025-02-28T00:00:00Z');
    assert.equal(invoice.InvoiceNumber, made.InvoiceNumber);
    assert.equal(invoice.BillToName, 'Ada Lovelace');
    const contractUid = (await t.get(`/api/billing/coworkercontracts/${contract}`)).body;
    assert.equal(lines[0].CoworkerContractUniqueId, contractUid.UniqueId);
    assert.equal(contractUid.InvoicedPeriod, '2025-03-01T00:00:00Z');
    assert.equal(contractUid.RenewalDate, '2025-03-01T00:00:00Z');
    assert.equal(lines[2].ContractProductUniqueId, (await t.get(`/api/billing/contractproducts/${cp}`)).body.UniqueId);
    const billedSale = (await t.get(`/api/billing/coworkerproducts/${sale}`)).body;
    assert.equal(billedSale.Invoiced, true);
    assert.equal(billedSale.CoworkerInvoiceId, made.Id);
    assert.equal(billedSale.CoworkerInvoiceNumber, made.InvoiceNumber);
    assert.ok(billedSale.InvoicedOn);
    assert.equal((await t.get(`/api/billing/coworkerproducts/${later}`)).body.Invoiced, false);
    assert.equal((await t.get(`/api/billing/coworkerproducts/${monthly}`)).body.CoworkerInvoiceId, made.Id);

    // A second run up to the same date makes nothing; a later one bills only what became due.
    const again = await billRun(t, [customer], '2025-02-10');
    assert.deepEqual(again.body.Value, []);
    const march = await billRun(t, [customer], '2025-03-01');
    const marchLines = await linesOf(t, march.body.Value[0].Id);
    assert.deepEqual(
      marchLines.map((l) => l.Description),
      [
        'Resident desk (2025-03-01 – 2025-03-31)',
        'Locker (2025-03-01 – 2025-03-31)',
        'Barista coffee (2025-02-11)',
        'Parking (2025-02-28 – 2025-03-30)',
      ],
    );
  });

  it("an invoice a run makes fires CoworkerInvoiceCreate (16), and CoworkerInvoiceCreateFirst (15) on the customer's first, in its transaction", async () => {
    const [shop] = await createBusinesses(t, 'Hooked Works');
    const hooks: Record<number, number> = {};
    for (const action of [15, 16])
      hooks[action] = await create(t, '/api/sys/webhooks', {
        BusinessId: shop,
        Name: `hook ${action}`,
        Action: action,
        URL: 'https://hooks.example.com/billing',
      });
    const customer = await createCoworker(t, shop);
    const product = await createProduct(t, shop, { Price: 1 });
    await create(t, '/api/billing/coworkerproducts', { CoworkerId: customer, ProductId: product, SaleDate: '2025-01-02' });
    await create(t, '/api/billing/coworkerproducts', { CoworkerId: customer, ProductId: product, SaleDate: '2025-02-02' });
    const first = (await billRun(t, [customer], '2025-01-31')).body.Value[0].Id;
    const second = (await billRun(t, [customer], '2025-02-28')).body.Value[0].Id;
    const delivered = async (hook: number) =>
      (await t.get(`/api/sys/webhooks/${hook}/deliveries?size=100`)).body.Records.map((d: any) => d.RecordId).sort(
        (x: number, y: number) => x - y,
      );
    assert.deepEqual(await delivered(hooks[16]), [first, second]);
    assert.deepEqual(await delivered(hooks[15]), [first]);
    const history = (await t.get(`/api/billing/coworkerinvoices/${first}/history`)).body.Records;
    assert.deepEqual(
      history.map((h: any) => h.Action),
      ['Create'],
    );
  });

  it('a quarterly tariff and a cancellation inside a period: pro-rated by the days of the full period', async () => {
    const tariff = await createTariff(t, business, { Name: 'Quarterly office', Price: 300, InvoiceEvery: 3 });
    const customer = await createCoworker(t, business);
    await create(t, '/api/billing/coworkercontracts', {
      CoworkerId: customer,
      TariffId: tariff,
      StartDate: '2025-02-10',
      BillingDay: 1,
      CancellationDate: '2025-04-16',
    });
    const res = await billRun(t, [customer], '2025-12-31');
    const lines = await linesOf(t, res.body.Value[0].Id);
    // 10 Feb–28 Feb: 19 of the 90 days of 1 Dec–28 Feb; 1 Mar–15 Apr: 46 of the 92 days of 1 Mar–31 May.
    assert.deepEqual(
      lines.map((l) => [l.PeriodFrom.slice(0, 10), l.PeriodTo.slice(0, 10), l.UnitPrice]),
      [
        ['2025-02-10', '2025-02-28', 63.33],
        ['2025-03-01', '2025-04-15', 150],
      ],
    );
    assert.equal((await t.get(`/api/billing/coworkerinvoices/${res.body.Value[0].Id}`)).body.TotalAmount, 213.33);
  });

  it('without pro-rating the first short period costs the full price; a one-off sale marked invoiced is never billed', async () => {
    const tariff = await createTariff(t, business, { Name: 'Flex', Price: 80 });
    const customer = await createCoworker(t, business);
    await create(t, '/api/billing/coworkercontracts', {
      CoworkerId: customer,
      TariffId: tariff,
      StartDate: '2025-05-20',
      BillingDay: 1,
      ApplyProRating: false,
    });
    const product = await createProduct(t, business, { Price: 12 });
    await create(t, '/api/billing/coworkerproducts', { CoworkerId: customer, ProductId: product, SaleDate: '2025-05-21', Invoiced: true });
    const res = await billRun(t, [customer], '2025-05-31');
    const lines = await linesOf(t, res.body.Value[0].Id);
    assert.deepEqual(
      lines.map((l) => [l.PeriodFrom.slice(0, 10), l.UnitPrice]),
      [['2025-05-20', 80]],
    );
  });

  it('a preview shows exactly what the run that follows makes, writes nothing and uses no invoice number', async () => {
    const tariff = await createTariff(t, business, { Name: 'Preview desk', Price: 99.99, TaxRateId: vat });
    const customer = await createCoworker(t, business);
    await create(t, '/api/billing/coworkercontracts', { CoworkerId: customer, TariffId: tariff, StartDate: '2025-03-07', BillingDay: 1 });
    const product = await createProduct(t, business, { Price: 0.05, TaxRateId: vat });
    await create(t, '/api/billing/coworkerproducts', { CoworkerId: customer, ProductId: product, Quantity: 7, SaleDate: '2025-03-08' });
    const beforeRows = await Promise.all(BILLING_TABLES.map((table) => tableRows(t, table)));
    const preview = await billRun(t, [customer], '2025-04-01', true);
    assert.equal(preview.body.WasSuccessful, true, JSON.stringify(preview.body));
    assert.deepEqual(await Promise.all(BILLING_TABLES.map((table) => tableRows(t, table))), beforeRows);
    assert.equal(preview.body.Value.length, 1);
    const shown = preview.body.Value[0];
    assert.deepEqual(Object.keys(shown).sort(), ['CoworkerId', 'CurrencyId', 'Lines', 'TaxAmount', 'TotalAmount']);
    const run = await billRun(t, [customer], '2025-04-01');
    const made = run.body.Value[0];
    const invoice = (await t.get(`/api/billing/coworkerinvoices/${made.Id}`)).body;
    assert.equal(shown.TotalAmount, invoice.TotalAmount);
    assert.equal(shown.TaxAmount, invoice.TaxAmount);
    assert.equal(shown.CurrencyId, invoice.CurrencyId);
    assert.deepEqual(shown.Lines, (await linesOf(t, made.Id)).map(pick));
    // 99.99 × 25/31 = 80.637 → 80.64; 0.05 × 7 = 0.35, VAT 0.07
    assert.deepEqual(
      shown.Lines.map((l: any) => l.UnitPrice),
      [80.64, 99.99, 0.05],
    );
    // The number the preview did not use is the run's: the series has no gap.
    const numbers = (await t.get(`/api/billing/coworkerinvoices?CoworkerInvoice_Business=${business}&size=1000`)).body.Records.map(
      (r: any) => Number(r.InvoiceNumber),
    ).sort((a: number, b: number) => a - b);
    assert.deepEqual(
      numbers,
      numbers.map((_: number, i: number) => i + 1),
    );
  });

  it('10 parallel runs and the raise route for one customer bill each item once; a run after them makes nothing', async () => {
    const tariff = await createTariff(t, business, { Name: 'Race desk', Price: 120 });
    const customer = await createCoworker(t, business);
    const start = new Date(Date.now() - 40 * 86_400_000).toISOString().slice(0, 10);
    await create(t, '/api/billing/coworkercontracts', { CoworkerId: customer, TariffId: tariff, StartDate: start });
    const product = await createProduct(t, business, { Price: 4 });
    for (let i = 0; i < 3; i++)
      await create(t, '/api/billing/coworkerproducts', { CoworkerId: customer, ProductId: product, SaleDate: start });
    const answers = await Promise.all([
      ...Array.from({ length: 10 }, () => billRun(t, [customer])),
      t.post(`/api/billing/coworkerinvoices/${business}/create/${customer}`, {}),
      t.post(`/api/billing/coworkerinvoices/${business}/create/${customer}`, {}, { headers: { 'Idempotency-Key': `raise-${customer}` } }),
    ]);
    for (const answer of answers)
      assert.equal(answer.status === 200 || answer.body.Message === 'Nothing to invoice.', true, JSON.stringify(answer.body));
    const invoices = (await t.get(`/api/billing/coworkerinvoices?CoworkerInvoice_Coworker=${customer}`)).body.Records;
    assert.equal(invoices.length, 1, JSON.stringify(invoices));
    const lines = await linesOf(t, invoices[0].Id);
    const keys = lines.map((l) => `${l.CoworkerContractUniqueId ?? l.CoworkerProductUniqueId}/${l.PeriodFrom}`);
    assert.equal(new Set(keys).size, keys.length);
    assert.equal(lines.filter((l) => l.CoworkerProductUniqueId).length, 3);
    const retry = await t.post(
      `/api/billing/coworkerinvoices/${business}/create/${customer}`,
      {},
      { headers: { 'Idempotency-Key': `raise-${customer}` } },
    );
    assert.equal(retry.headers.get('idempotent-replayed'), 'true');
    const after = await refused(
      t,
      BILLING_TABLES.filter((table) => table !== 'change_log' && table !== 'billingrun'),
      400,
      () => t.post(`/api/billing/coworkerinvoices/${business}/create/${customer}`, {}),
    );
    assert.equal(after.body.Message, 'Nothing to invoice.');
    assert.deepEqual((await billRun(t, [customer])).body.Value, []);
  });

  it('without the customer lock, the claims and the unique line key alone still bill each item once (parallel runs inside the service)', async () => {
    const tariff = await createTariff(t, business, { Name: 'Unlocked desk', Price: 70 });
    const customer = await createCoworker(t, business);
    await create(t, '/api/billing/coworkercontracts', { CoworkerId: customer, TariffId: tariff, StartDate: '2025-01-10', BillingDay: 1 });
    const product = await createProduct(t, business, { Price: 1.5 });
    await create(t, '/api/billing/coworkerproducts', { CoworkerId: customer, ProductId: product, SaleDate: '2025-01-11' });
    await create(t, '/api/billing/coworkerproducts', {
      CoworkerId: customer,
      ProductId: product,
      RegularCharge: true,
      RepeatCycle: 3,
      SaleDate: '2025-01-06',
    });
    const runner = t.app.get(BillingRunner);
    const unlocked = Object.assign(Object.create(Object.getPrototypeOf(runner)), runner, {
      lockCustomer: async () => undefined,
    }) as BillingRunner;
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => unlocked.bill({ id: customer, businessId: business }, LocalDate.parse('2025-02-15'), undefined)),
    );
    const made = results.flatMap((result) => (result.status === 'fulfilled' ? result.value : []));
    assert.equal(made.length, 1, JSON.stringify(results.map((r) => (r.status === 'rejected' ? String(r.reason) : r.value.length))));
    const lines = await linesOf(t, made[0].Id!);
    // 10–31 Jan, 1–28 Feb, the sale, and weekly occurrences 6 Jan … 10 Feb.
    assert.equal(lines.length, 9);
    assert.equal((await t.get(`/api/billing/coworkerinvoices?CoworkerInvoice_Coworker=${customer}`)).body.TotalItems, 1);
  });

  it('deleting billed contracts, contract products and sales is refused; changing what was billed is refused naming the field', async () => {
    const tariff = await createTariff(t, business, { Name: 'Kept desk', Price: 50 });
    const customer = await createCoworker(t, business);
    const contract = await create(t, '/api/billing/coworkercontracts', { CoworkerId: customer, TariffId: tariff, StartDate: '2025-01-01' });
    const product = await createProduct(t, business, { Price: 5 });
    const cp = await create(t, '/api/billing/contractproducts', { CoworkerContractId: contract, ProductId: product });
    const sale = await create(t, '/api/billing/coworkerproducts', { CoworkerId: customer, ProductId: product, SaleDate: '2025-01-02' });
    await billRun(t, [customer], '2025-01-31');
    const tables = ['coworkercontract', 'contractproduct', 'coworkerproduct', 'coworkerinvoiceline'];
    for (const path of [
      `/api/billing/coworkercontracts/${contract}`,
      `/api/billing/contractproducts/${cp}`,
      `/api/billing/coworkerproducts/${sale}`,
    ]) {
      const res = await refused(t, tables, 400, () => t.delete(path));
      assert.match(res.body.Message, /billed/, path);
    }
    const stored = (await t.get(`/api/billing/coworkercontracts/${contract}`)).body;
    const moved = await refused(t, tables, 400, () =>
      t.put(`/api/billing/coworkercontracts/${contract}`, { ...stored, StartDate: '2025-01-05' }),
    );
    assert.equal(moved.body.Errors[0].PropertyName, 'StartDate');
    const early = await refused(t, tables, 400, () =>
      t.put(`/api/billing/coworkercontracts/${contract}`, { ...stored, CancellationDate: '2025-01-15' }),
    );
    assert.equal(early.body.Errors[0].PropertyName, 'CancellationDate');
    const storedSale = (await t.get(`/api/billing/coworkerproducts/${sale}`)).body;
    const repriced = await refused(t, tables, 400, () => t.put(`/api/billing/coworkerproducts/${sale}`, { ...storedSale, Price: 6 }));
    assert.equal(repriced.body.Errors[0].PropertyName, 'Price');
    const unbilled = await refused(t, tables, 400, () =>
      t.put(`/api/billing/coworkerproducts/${sale}`, { ...storedSale, Invoiced: false }),
    );
    assert.equal(unbilled.body.Errors[0].PropertyName, 'Invoiced');
    const storedCp = (await t.get(`/api/billing/contractproducts/${cp}`)).body;
    const otherProduct = await createProduct(t, business);
    const swapped = await refused(t, tables, 400, () =>
      t.put(`/api/billing/contractproducts/${cp}`, { ...storedCp, ProductId: otherProduct }),
    );
    assert.equal(swapped.body.Errors[0].PropertyName, 'ProductId');
    // What does not change what was billed may change: a later cancellation, notes, a new price for later periods.
    assert.equal(
      (
        await t.put(`/api/billing/coworkercontracts/${contract}`, {
          ...stored,
          CancellationDate: '2025-06-01',
          Price: 55,
          Notes: 'moved on',
        })
      ).status,
      200,
    );
    assert.equal((await t.put(`/api/billing/coworkerproducts/${sale}`, { ...storedSale, Notes: 'paid in cash' })).status, 200);
  });

  it('a customer whose items cannot be billed gets no invoice and an Errors entry; the run goes on with the others', async () => {
    const foreignRate = await create(t, '/api/sys/taxrates', { BusinessId: other, Name: 'Other VAT', Rate: 21 });
    const good = await createCoworker(t, business);
    const bad = await createCoworker(t, business);
    const product = await createProduct(t, business, { Name: 'Legacy item', Price: 9 });
    await create(t, '/api/billing/coworkerproducts', { CoworkerId: good, ProductId: product, SaleDate: '2025-01-02' });
    const broken = await createProduct(t, business, { Name: 'Mis-taxed', Price: 9 });
    // A tax rate of another business, stored before rates were checked.
    await t.db.query(`UPDATE ${t.db.id('product')} SET ${t.db.id('TaxRateId')} = ? WHERE ${t.db.id('Id')} = ?`, [foreignRate, broken]);
    const badSale = await create(t, '/api/billing/coworkerproducts', { CoworkerId: bad, ProductId: broken, SaleDate: '2025-01-02' });
    const res = await billRun(t, [bad, good], '2025-01-31');
    assert.equal(res.body.WasSuccessful, true);
    assert.deepEqual(
      res.body.Value.map((v: any) => v.CoworkerId),
      [good],
    );
    assert.equal((await t.get(`/api/billing/coworkerinvoices?CoworkerInvoice_Coworker=${bad}`)).body.TotalItems, 0);
    assert.equal((await t.get(`/api/billing/coworkerproducts/${badSale}`)).body.Invoiced, false);
    const runs = (await t.get(`/api/billing/billingruns?BillingRun_Business=${business}&orderBy=Id&dir=desc&size=1`)).body.Records;
    assert.equal(runs[0].Trigger, 'Manual');
    assert.equal(runs[0].CustomersBilled, 1);
    assert.deepEqual(runs[0].InvoiceIds, [res.body.Value[0].Id]);
    assert.equal(runs[0].Errors.length, 1);
    assert.equal(runs[0].Errors[0].CoworkerId, bad);
    assert.match(runs[0].Errors[0].Message, /TaxRate/);
    const raised = await t.post(`/api/billing/coworkerinvoices/${business}/create/${bad}`, {});
    assert.equal(raised.status, 400);
    assert.match(raised.body.Message, /TaxRate/);
  });

  it("refused bill runs change nothing; restricted administrators bill and read only their businesses' customers", async () => {
    const mine = await createCoworker(t, business);
    const theirs = await createCoworker(t, other);
    const product = await createProduct(t, business, { Price: 3 });
    const foreignProduct = await createProduct(t, other, { Price: 3 });
    await create(t, '/api/billing/coworkerproducts', { CoworkerId: mine, ProductId: product, SaleDate: '2025-01-02' });
    await create(t, '/api/billing/coworkerproducts', { CoworkerId: theirs, ProductId: foreignProduct, SaleDate: '2025-01-02' });
    await createUser(t, {
      Email: 'biller@example.com',
      Password: 'a-long-password-3',
      Roles: ['CoworkerInvoice-Create', 'CoworkerInvoice-Read', 'Coworker-List'],
      Businesses: [business],
    });
    const biller = basicAuth('biller@example.com', 'a-long-password-3');
    for (const body of [
      { Key: 'COWORKER_BILL_RUN', Ids: [mine, theirs] },
      { Key: 'COWORKER_BILL_RUN', Ids: [mine], Parameters: [{ Name: 'Until', Value: 'not a date' }] },
      { Key: 'COWORKER_BILL_RUN', Ids: [mine], Parameters: [{ Name: 'Preview', Value: 'perhaps' }] },
      { Key: 'COWORKER_BILL_RUN', Ids: [] },
    ]) {
      const res = await refused(t, BILLING_TABLES, 200, () => t.post('/api/spaces/coworkers/runcommand', body, { auth: biller }));
      assert.equal(res.body.WasSuccessful, false, JSON.stringify(body));
      assert.equal(res.body.Status, 400);
    }
    assert.equal((await t.post(`/api/billing/coworkerinvoices/${other}/create/${theirs}`, {}, { auth: biller })).status, 401);
    const ok = await billRun(t, [mine], '2025-01-31', false, biller);
    assert.equal(ok.body.WasSuccessful, true, JSON.stringify(ok.body));
    const runs = (await t.get('/api/billing/billingruns?size=1000', { auth: biller })).body.Records;
    assert.ok(runs.length > 0 && runs.every((r: any) => r.BusinessId === business));
    await createUser(t, { Email: 'reader@example.com', Password: 'a-long-password-4', Roles: ['Coworker-List'], Businesses: [business] });
    assert.equal((await billRun(t, [mine], '2025-01-31', false, basicAuth('reader@example.com', 'a-long-password-4'))).status, 401);
    assert.equal((await t.get('/api/billing/billingruns', { auth: basicAuth('reader@example.com', 'a-long-password-4') })).status, 401);
  });

  it('the automatic run bills customers with a contract period due up to today, with their other items, and records the run', async () => {
    const [shop] = await createBusinesses(t, 'Auto Works');
    const tariff = await createTariff(t, shop, { Name: 'Auto desk', Price: 10 });
    const start = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
    const customers: number[] = [];
    for (let i = 0; i < 3; i++) {
      const customer = await createCoworker(t, shop);
      await create(t, '/api/billing/coworkercontracts', { CoworkerId: customer, TariffId: tariff, StartDate: start });
      customers.push(customer);
    }
    const contact = await createCoworker(t, shop);
    const product = await createProduct(t, shop, { Price: 2 });
    await create(t, '/api/billing/coworkerproducts', { CoworkerId: customers[0], ProductId: product, SaleDate: start });
    await create(t, '/api/billing/coworkerproducts', { CoworkerId: contact, ProductId: product, SaleDate: start });
    const worker = t.app.get(BillingRunWorker);
    await Promise.all([worker.runOnce(), worker.runOnce(), worker.runOnce()]);
    await worker.runOnce();
    const invoices = (await t.get(`/api/billing/coworkerinvoices?CoworkerInvoice_Business=${shop}&size=100`)).body.Records;
    assert.deepEqual(invoices.map((i: any) => i.CoworkerId).sort(), [...customers].sort());
    assert.equal((await linesOf(t, invoices.find((i: any) => i.CoworkerId === customers[0]).Id)).length, 2);
    const runs = (await t.get(`/api/billing/billingruns?BillingRun_Business=${shop}`)).body.Records;
    assert.equal(runs.length >= 1, true);
    assert.equal(runs[0].Trigger, 'Automatic');
    assert.equal(runs[0].CustomersBilled, 3);
    assert.deepEqual(runs[0].Errors, []);
    assert.equal(
      runs.reduce((n: number, r: any) => n + r.InvoiceIds.length, 0),
      3,
    );
  });

  it('60 customers of one business in one run, billed several at once on MariaDB, racing the automatic run: each once, numbers 1..60 without a gap', async () => {
    const [shop] = await createBusinesses(t, 'Crowded Works');
    const tariff = await createTariff(t, shop, { Name: 'Crowded desk', Price: 12 });
    const product = await createProduct(t, shop, { Price: 3 });
    const start = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
    const customers: number[] = [];
    for (let i = 0; i < 60; i++) {
      const customer = await createCoworker(t, shop);
      await create(t, '/api/billing/coworkercontracts', { CoworkerId: customer, TariffId: tariff, StartDate: start });
      await create(t, '/api/billing/coworkerproducts', { CoworkerId: customer, ProductId: product, SaleDate: start });
      customers.push(customer);
    }
    const runner = t.app.get(BillingRunner);
    // Several at once (on MariaDB the pool is larger than the two connections a run leaves; on SQLite they share a group commit).
    assert.ok(runner.width > 1);
    const retriesBefore = runner.attempts.retries;
    const [manual] = await Promise.all([billRun(t, customers), t.app.get(BillingRunWorker).runOnce()]);
    assert.equal(manual.body.WasSuccessful, true, JSON.stringify(manual.body));
    const invoices = (await t.get(`/api/billing/coworkerinvoices?CoworkerInvoice_Business=${shop}&size=100`)).body.Records as Array<
      Record<string, any>
    >;
    assert.deepEqual(
      invoices.map((i) => i.CoworkerId).sort((a, b) => a - b),
      customers,
    );
    assert.deepEqual(
      invoices.map((i) => Number(i.InvoiceNumber)).sort((a, b) => a - b),
      Array.from({ length: 60 }, (_, i) => i + 1),
    );
    const lines = (await Promise.all(invoices.map((invoice) => linesOf(t, invoice.Id)))).flat();
    assert.equal(lines.length, 120);
    const keys = lines.map((l) => `${l.CoworkerContractUniqueId ?? l.CoworkerProductUniqueId}/${l.PeriodFrom}`);
    assert.equal(new Set(keys).size, 120);
    for (const invoice of invoices) assert.equal(lines.filter((l) => l.CoworkerInvoiceId === invoice.Id).length, 2);
    // The runs' records: every invoice in exactly one of them, each run's list in its customers' order.
    const runs = (await t.get(`/api/billing/billingruns?BillingRun_Business=${shop}&size=10`)).body.Records as Array<Record<string, any>>;
    assert.equal(
      runs.reduce((n, r) => n + r.CustomersBilled, 0),
      60,
    );
    const listed = runs.flatMap((r) => r.InvoiceIds as number[]);
    assert.deepEqual(
      [...listed].sort((a, b) => a - b),
      invoices.map((i) => i.Id).sort((a, b) => a - b),
    );
    const customerOf = new Map(invoices.map((i) => [i.Id, i.CoworkerId]));
    for (const run of runs) {
      const order = (run.InvoiceIds as number[]).map((id) => customerOf.get(id));
      assert.deepEqual(
        order,
        [...order].sort((a, b) => a - b),
        `run ${run.Id} lists its invoices in its customers' order`,
      );
      assert.deepEqual(run.Errors, []);
    }
    // Conflicts on the business's invoice counter are retried, and stay few.
    assert.equal(runner.attempts.retries - retriesBefore <= 60, true, `${runner.attempts.retries - retriesBefore} retries`);
  });

  /** `count` customers of a new business, each with a one-off sale of March 2025 due. */
  async function customersWithASale(name: string, count: number) {
    const [shop] = await createBusinesses(t, name);
    const product = await createProduct(t, shop, { Price: 5 });
    const customers: Array<{ id: number; businessId: number }> = [];
    for (let i = 0; i < count; i++) {
      const customer = await createCoworker(t, shop);
      await create(t, '/api/billing/coworkerproducts', { CoworkerId: customer, ProductId: product, SaleDate: '2025-03-03' });
      customers.push({ id: customer, businessId: shop });
    }
    return { shop, customers };
  }

  /** Calls `seen` with each batch the runner is given; answers the runner's own billBatch, to put back. */
  function watchBatches(runner: BillingRunner, seen: (batch: Parameters<BillingRunner['billBatch']>[0]) => void) {
    const billBatch = runner.billBatch.bind(runner);
    runner.billBatch = (batch, ...rest) => {
      seen(batch);
      return billBatch(batch, ...rest);
    };
    return billBatch;
  }

  it('a manual run whose request deadline passes begins no further batch of customers; those begun finish and are recorded in order', async () => {
    const { shop, customers } = await customersWithASale('Deadline Works', 10);
    const runner = t.app.get(BillingRunner);
    const begun: number[] = [];
    const billBatch = watchBatches(runner, (batch) => begun.push(...batch.map((customer) => customer.id)));
    // Batches of up to three customers (the first of two), each billed in one transaction.
    Object.defineProperty(runner, 'batchSize', { value: 3, configurable: true });
    try {
      // The deadline passes once the first two batches, five customers, have been begun (as the request's 503 would mark it).
      const scope = {
        get expired() {
          return begun.length >= 5;
        },
      } as unknown as WriteScope;
      const run = await t.app
        .get(BillingRunsService)
        .runBusiness(shop, customers, LocalDate.parse('2025-03-31'), 'Manual', undefined, scope);
      assert.deepEqual(
        begun,
        customers.slice(0, 5).map((c) => c.id),
      );
      assert.equal(run.customersBilled, 5);
      assert.deepEqual(
        run.invoices.map((i) => i.CoworkerId),
        begun,
      );
    } finally {
      runner.billBatch = billBatch;
      delete (runner as { batchSize?: number }).batchSize;
    }
    const invoices = (await t.get(`/api/billing/coworkerinvoices?CoworkerInvoice_Business=${shop}&size=100`)).body.Records as Array<
      Record<string, any>
    >;
    assert.deepEqual(
      invoices.map((i) => i.CoworkerId).sort((a, b) => a - b),
      begun,
    );
    const runs = (await t.get(`/api/billing/billingruns?BillingRun_Business=${shop}`)).body.Records;
    assert.equal(runs.length, 1);
    assert.equal(runs[0].CustomersBilled, 5);
    const customerOf = new Map(invoices.map((i) => [i.Id, i.CoworkerId]));
    assert.deepEqual(
      runs[0].InvoiceIds.map((id: number) => customerOf.get(id)),
      begun,
    );
  });

  it('a run\'s first batches are small and double up to the batch size (docs/billing.md, "Exactly once")', async () => {
    const { shop, customers } = await customersWithASale('Growing Batches', 20);
    const runner = t.app.get(BillingRunner);
    const sizes: number[] = [];
    const billBatch = watchBatches(runner, (batch) => sizes.push(batch.length));
    Object.defineProperty(runner, 'batchSize', { value: 8, configurable: true });
    try {
      const run = await t.app.get(BillingRunsService).runBusiness(shop, customers, LocalDate.parse('2025-03-31'), 'Manual', undefined);
      assert.deepEqual(sizes, [2, 4, 8, 6]);
      assert.equal(run.customersBilled, 20);
      assert.deepEqual(
        run.invoices.map((i) => i.CoworkerId),
        customers.map((c) => c.id),
      );
    } finally {
      runner.billBatch = billBatch;
      delete (runner as { batchSize?: number }).batchSize;
    }
  });
});
