// npm run bench:billing: a billing run over BENCH_BILLING_CUSTOMERS customers (default 10,000), each with
// a contract and two sales, through COWORKER_BILL_RUN in batches of 1000 ids; invoices per second, and
// the ratio to plain customer-invoice creates through the API (POST /api/billing/coworkerinvoices, the
// same number, 8 at a time). The app runs in this process as the HTTP suites run it: in-memory SQLite,
// or MariaDB with TEST_DATABASE=mysql. Seeding goes through the API too (8 requests at a time).
import { createBusinesses, createTariff, create, currencyId } from '../test/support/fixtures.js';
import { createProduct } from '../test/support/billing-fixtures.js';
import { startApp, type TestApp } from '../test/support/test-app.js';

const CUSTOMERS = Number(process.env.BENCH_BILLING_CUSTOMERS ?? 10_000);
const WIDTH = 8;

async function inParallel(count: number, work: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: WIDTH }, async () => {
    while (next < count) await work(next++);
  }));
}

async function main(): Promise<void> {
  const t: TestApp = await startApp({ BILLING_RUN_INTERVAL_SECONDS: '0', RATE_LIMIT_PER_MINUTE: '10000000' });
  try {
    const [business, plain] = await createBusinesses(t, 'Bench Billing', 'Bench Plain');
    const gbp = await currencyId(t, 'GBP');
    const tariff = await createTariff(t, business, { Price: 99.5 });
    const product = await createProduct(t, business, { Price: 2.35 });
    const customers: number[] = [];
    const seeded = Date.now();
    await inParallel(CUSTOMERS, async (i) => {
      const customer = await create(t, '/api/spaces/coworkers', { BusinessId: business, FullName: `Member ${i}`, Email: `member${i}@bench.example` });
      await create(t, '/api/billing/coworkercontracts', { CoworkerId: customer, TariffId: tariff, StartDate: '2025-01-16', BillingDay: 1 });
      for (const day of ['2025-01-20', '2025-01-25']) await create(t, '/api/billing/coworkerproducts', { CoworkerId: customer, ProductId: product, SaleDate: day });
      customers.push(customer);
    });
    const plainCustomer = await create(t, '/api/spaces/coworkers', { BusinessId: plain, FullName: 'Plain', Email: 'plain@bench.example' });
    console.log(`seeded ${CUSTOMERS} customers (contract + 2 sales each) in ${((Date.now() - seeded) / 1000).toFixed(1)} s on ${process.env.TEST_DATABASE === 'mysql' ? 'MariaDB' : 'SQLite'}`);

    const runStarted = process.hrtime.bigint();
    let invoices = 0;
    for (let start = 0; start < customers.length; start += 1000) {
      const res = await t.post('/api/spaces/coworkers/runcommand', { Key: 'COWORKER_BILL_RUN', Ids: customers.slice(start, start + 1000), Parameters: [{ Name: 'Until', Value: '2025-01-31' }] });
      if (!res.body.WasSuccessful) throw new Error(JSON.stringify(res.body));
      invoices += res.body.Value.length;
    }
    const runSeconds = Number(process.hrtime.bigint() - runStarted) / 1e9;

    const createStarted = process.hrtime.bigint();
    await inParallel(CUSTOMERS, () => create(t, '/api/billing/coworkerinvoices', { BusinessId: plain, CoworkerId: plainCustomer, CurrencyId: gbp, TotalAmount: 120 }));
    const createSeconds = Number(process.hrtime.bigint() - createStarted) / 1e9;

    const billed = invoices / runSeconds;
    const plainRate = CUSTOMERS / createSeconds;
    console.log(`billing run: ${invoices} invoices (3 lines each) in ${runSeconds.toFixed(1)} s = ${billed.toFixed(0)} invoices/s`);
    console.log(`plain creates: ${CUSTOMERS} invoices in ${createSeconds.toFixed(1)} s = ${plainRate.toFixed(0)} invoices/s`);
    console.log(`ratio billing run / plain creates: ${(billed / plainRate).toFixed(2)}`);
  } finally {
    await t.close();
  }
}

await main();
