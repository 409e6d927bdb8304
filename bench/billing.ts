// npm run bench:billing: the automatic billing run over BENCH_BILLING_CUSTOMERS customers (default 10,000),
// each with a contract (one full month due) and two sales, so three lines an invoice; invoices per second,
// the memory the process held while it ran, and the ratio to plain customer-invoice creates through the API
// (POST /api/billing/coworkerinvoices for the same customers, BENCH_BILLING_CREATES of them, 8 at a time).
// The app runs in this process as the HTTP suites run it: in-memory SQLite, or MariaDB with
// DATABASE_URL=mysql://… (or TEST_DATABASE=mysql): a fresh database made on that server.
//
// Seeding: one customer with its contract and sales is made through the API, as a client makes it; its
// rows are then copied, with new UniqueIds, names and emails, into the other customers by multi-row
// INSERTs (what the API would have written, minus the history entries, in seconds instead of minutes).
import { randomUUID } from 'node:crypto';
import { BillingRunWorker } from '../src/billing/billing-runs/billing-run.worker.js';
import { BillingRunner } from '../src/billing/billing-runs/billing-runner.js';
import type { Database } from '../src/persistence/database.js';
import { createBusiness, createTariff, create, currencyId } from '../test/support/fixtures.js';
import { createProduct } from '../test/support/billing-fixtures.js';
import type { TestApp } from '../test/support/test-app.js';
import type { Tx } from '../src/persistence/tx.js';
import { StatementTrace } from './statement-trace.js';

const CUSTOMERS = Number(process.env.BENCH_BILLING_CUSTOMERS ?? 10_000);
const CREATES = Math.min(CUSTOMERS, Number(process.env.BENCH_BILLING_CREATES ?? 2_000));
const WIDTH = 8;
const ROWS_PER_INSERT = 400;

type Row = Record<string, unknown>;

async function inParallel(count: number, work: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: WIDTH }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** The row `id` of `table`, as stored (every column but Id). */
async function templateRows(db: Database, table: string, column: string, id: number): Promise<Row[]> {
  const rows = await db.query(`SELECT * FROM ${db.id(table)} WHERE ${db.id(column)} = ? ORDER BY ${db.id('Id')}`, [id]);
  return rows.map(({ Id: _id, ...row }) => row);
}

/** Multi-row INSERTs of `rows` into `table`; returns nothing (ids are read back by UniqueId). */
async function insertRows(db: Database, tx: Tx, table: string, rows: Row[]): Promise<void> {
  const names = Object.keys(rows[0]);
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    const batch = rows.slice(start, start + ROWS_PER_INSERT);
    const values = batch.map(() => `(${names.map(() => '?').join(', ')})`).join(', ');
    await db.query(
      `INSERT INTO ${db.id(table)} (${names.map((name) => db.id(name)).join(', ')}) VALUES ${values}`,
      batch.flatMap((row) => names.map((name) => row[name])),
      tx,
    );
  }
}

/**
 * The other CUSTOMERS - 1 customers: copies of the template customer's row, its contract's and its
 * sales', a thousand customers a transaction. Returns the customers' ids (the template's first).
 */
async function cloneCustomers(db: Database, template: number): Promise<number[]> {
  const [customer] = await templateRows(db, 'coworker', 'Id', template);
  const contracts = await templateRows(db, 'coworkercontract', 'CoworkerId', template);
  const sales = await templateRows(db, 'coworkerproduct', 'CoworkerId', template);
  const ids = [template];
  for (let first = 1; first < CUSTOMERS; first += 1000) {
    const count = Math.min(1000, CUSTOMERS - first);
    const uniqueIds = Array.from({ length: count }, () => randomUUID());
    await db.transaction(async (tx) => {
      await insertRows(
        db,
        tx,
        'coworker',
        uniqueIds.map((uniqueId, i) => ({
          ...customer,
          UniqueId: uniqueId,
          FullName: `Member ${first + i}`,
          Email: `member${first + i}@bench.example`,
        })),
      );
      const made = await db.query<{ Id: number; UniqueId: string }>(
        `SELECT ${db.id('Id')}, ${db.id('UniqueId')} FROM ${db.id('coworker')} WHERE ${db.id('UniqueId')} IN (${uniqueIds.map(() => '?').join(', ')})`,
        uniqueIds,
        tx,
      );
      const idOf = new Map(made.map((row) => [String(row.UniqueId), Number(row.Id)]));
      const newIds = uniqueIds.map((uniqueId) => idOf.get(uniqueId)!);
      await insertRows(
        db,
        tx,
        'coworkercontract',
        newIds.flatMap((id) => contracts.map((row) => ({ ...row, UniqueId: randomUUID(), CoworkerId: id }))),
      );
      await insertRows(
        db,
        tx,
        'coworkerproduct',
        newIds.flatMap((id) => sales.map((row) => ({ ...row, UniqueId: randomUUID(), CoworkerId: id }))),
      );
      ids.push(...newIds);
    });
  }
  return ids;
}

async function main(): Promise<void> {
  // DATABASE_URL names the server, as for the other benches; the test app makes a fresh database on it.
  if (/^(mysql|mariadb):/.test(process.env.DATABASE_URL ?? ''))
    Object.assign(process.env, { TEST_DATABASE: 'mysql', TEST_MYSQL_URL: process.env.DATABASE_URL });
  const { startApp } = await import('../test/support/test-app.js');
  const database = process.env.TEST_DATABASE === 'mysql' ? 'MariaDB' : 'SQLite';
  const t: TestApp = await startApp({ BILLING_RUN_INTERVAL_SECONDS: '0', RATE_LIMIT_PER_MINUTE: '10000000', REQUEST_TIMEOUT_MS: '600000' });
  try {
    const business = await createBusiness(t, { Name: 'Bench Billing' });
    const gbp = await currencyId(t, 'GBP');
    // Everything due up to today is one full month (the contract starts on the 1st of this month) and two sales.
    const today = new Date();
    const monthStart = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1)).toISOString().slice(0, 10);
    const tariff = await createTariff(t, business, { Price: 99.5 });
    const product = await createProduct(t, business, { Price: 2.35 });
    const seeded = Date.now();
    const template = await create(t, '/api/spaces/coworkers', {
      BusinessId: business,
      FullName: 'Member 0',
      Email: 'member0@bench.example',
    });
    await create(t, '/api/billing/coworkercontracts', { CoworkerId: template, TariffId: tariff, StartDate: monthStart, BillingDay: 1 });
    for (let i = 0; i < 2; i++)
      await create(t, '/api/billing/coworkerproducts', { CoworkerId: template, ProductId: product, SaleDate: monthStart });
    const customers = await cloneCustomers(t.db, template);
    console.log(
      `seeded ${customers.length} customers (a contract and 2 sales each) in ${((Date.now() - seeded) / 1000).toFixed(1)} s on ${database}`,
    );

    // The automatic run, as every instance makes it: the business's due customers read 200 at a time.
    // RSS counts an in-memory SQLite database too; the JS heap is what the run itself holds
    // (npm run bench:billing runs with --expose-gc, so that live objects are measured, not garbage).
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const before = process.memoryUsage();
    let peak = before.rss;
    let peakHeap = before.heapUsed;
    const sample = () => {
      const now = process.memoryUsage();
      peak = Math.max(peak, now.rss);
      peakHeap = Math.max(peakHeap, now.heapUsed);
    };
    // Sampled on a timer, and before every 20th customer: on SQLite the run never waits for I/O, so
    // timers do not fire while it runs.
    const sampler = setInterval(sample, 100);
    const runner = t.app.get(BillingRunner);
    const bill = runner.bill.bind(runner);
    let billed = 0;
    runner.bill = (...args) => {
      if (++billed % 20 === 0) sample();
      return bill(...args);
    };
    // BENCH_BILLING_TRACE=1: the statements the run sent, per customer (bench/statement-trace.ts).
    const trace = process.env.BENCH_BILLING_TRACE ? StatementTrace.start() : undefined;
    const runStarted = process.hrtime.bigint();
    await t.app.get(BillingRunWorker).runOnce();
    const runSeconds = Number(process.hrtime.bigint() - runStarted) / 1e9;
    trace?.stop();
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    gc?.();
    const after = process.memoryUsage();
    const [{ n: invoices }] = await t.db.query<{ n: number }>(
      `SELECT COUNT(*) AS n FROM ${t.db.id('coworkerinvoice')} WHERE ${t.db.id('BusinessId')} = ?`,
      [business],
    );
    const [{ n: lines }] = await t.db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${t.db.id('coworkerinvoiceline')}`);
    // Read in SQL: on SQLite the run kept the event loop busy, and the client's idle keep-alive sockets may be closed.
    const [run] = await t.db.query<{ CustomersBilled: number }>(
      `SELECT ${t.db.id('CustomersBilled')} FROM ${t.db.id('billingrun')} ORDER BY ${t.db.id('Id')} DESC LIMIT 1`,
    );
    if (Number(invoices) !== CUSTOMERS || Number(lines) !== 3 * CUSTOMERS || Number(run?.CustomersBilled) !== CUSTOMERS) {
      throw new Error(
        `the run made ${invoices} invoices, ${lines} lines, run ${JSON.stringify(run)}; ${CUSTOMERS} invoices of 3 lines expected`,
      );
    }

    // Let the sockets the server closed while the run kept it busy be seen closed before they are reused.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const createStarted = process.hrtime.bigint();
    await inParallel(CREATES, (i) =>
      create(t, '/api/billing/coworkerinvoices', { BusinessId: business, CoworkerId: customers[i], CurrencyId: gbp, TotalAmount: 120 }),
    );
    const createSeconds = Number(process.hrtime.bigint() - createStarted) / 1e9;

    const rate = Number(invoices) / runSeconds;
    const plainRate = CREATES / createSeconds;
    console.log(
      `billing run: ${invoices} invoices (3 lines each) in ${runSeconds.toFixed(1)} s = ${rate.toFixed(0)} invoices/s, ${runner.width} customers at a time`,
    );
    console.log(
      `customer transactions: ${runner.attempts.transactions}, of which retries (a conflict on the invoice counter or a claim lost): ${runner.attempts.retries}`,
    );
    console.log(
      `memory: RSS ${mb(before.rss)} before the run, peak ${mb(peak)} during it (+${mb(peak - before.rss)}); JS heap used ${mb(before.heapUsed)} before, peak ${mb(peakHeap)}, ${gc ? `${mb(after.heapUsed)} live after it` : 'live size unknown (no --expose-gc)'}`,
    );
    console.log(
      `plain creates: ${CREATES} invoices through the API (${WIDTH} at a time) in ${createSeconds.toFixed(1)} s = ${plainRate.toFixed(0)} invoices/s`,
    );
    console.log(`ratio billing run / plain creates: ${(rate / plainRate).toFixed(2)}`);
    if (trace) {
      console.log(
        `statements sent by the run: ${trace.total} = ${(trace.total / CUSTOMERS).toFixed(2)} per customer; by text, per customer:`,
      );
      for (const line of trace.report(40, CUSTOMERS)) console.log(line);
    }
  } finally {
    await t.close();
  }
}

await main();
