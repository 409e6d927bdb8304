// The automatic billing run over BENCH_BILLING_RUN_CUSTOMERS customers (10,000) of one business, in the
// running service as deployed (npm run bench; docs/performance.md, "Figures of 2026-11-29"): invoices and
// lines per second, the peak resident memory of the service's process tree while it runs, the ratio to
// plain invoice creates through the API (POST /api/billing/coworkerinvoices) in the same run, and GET by
// id's p99 while the run goes on against its p99 before it (targets: ratio ≥ 1, p99 within 2×).
//
// Seeding (docs/performance.md, "Billing runs"): one customer is made through the API with a contract,
// a contract product and two sales, its contract starting next month (nothing due, so the service's
// automatic run, every second in the bench, leaves it alone); its rows are copied through the database
// layer into the other customers; one UPDATE then moves every contract's start (and RenewalDate) to the
// 1st of this month, and the service's next look bills the business: one invoice of 4 lines a customer.
import { randomUUID } from 'node:crypto';
import { Agent } from 'node:http';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../src/config/configuration.js';
import { buildDataSourceOptions } from '../src/database/data-source-options.js';
import { CONNECTIONS, DURATION, load, medianMeasure, treeResidentMemoryMb, type Case, type Measure } from './harness.js';
import { latencyOf, probe, type Latency } from './probe.js';

// No comma in the name: BENCH_CASES is a list separated by commas.
export const BILLING_RUN_CASE = 'billing run of 10000 customers';
const CUSTOMERS = Number(process.env.BENCH_BILLING_RUN_CUSTOMERS ?? 10_000);
const PROBE_RATE = Number(process.env.BENCH_PDF_PROBE_RATE ?? 200);
const PROBE_SLICE_SECONDS = 2;
/** The automatic run's interval the bench gives the service (BILLING_RUN_INTERVAL_SECONDS). */
export const BILLING_RUN_INTERVAL_SECONDS = '1';
export const INVOICES_RATIO_TARGET = 1;
export const BILLING_P99_TARGET = 2;

export interface BillingRunFigures {
  customers: number;
  invoices: number;
  lines: number;
  seconds: number;
  invoicesPerSecond: number;
  linesPerSecond: number;
  /** Resident memory of the service's process tree before the run and at its highest during it, MB. */
  rssBeforeMb: number;
  rssPeakMb: number;
  plainCreates: Measure;
  ratio: number;
  getBefore: Latency;
  getDuring: Latency;
  p99Ratio: number;
}

type Row = Record<string, unknown>;

const day = (date: Date) => date.toISOString().slice(0, 10);

async function post(base: string, headers: Record<string, string>, path: string, body: Row): Promise<number> {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as { Value?: { Id: number }; Message?: string };
  if (res.status !== 200 || !answer.Value) throw new Error(`POST ${path}: ${res.status} ${answer.Message ?? ''}`);
  return answer.Value.Id;
}

/** Copies the template customer's rows into CUSTOMERS - 1 more, 500 customers a transaction; their ids. */
async function cloneCustomers(dataSource: DataSource, template: number): Promise<number[]> {
  const q = (name: string) => dataSource.driver.escape(name);
  const rowsOf = async (table: string, column: string, id: number): Promise<Row[]> =>
    (await dataSource.query<Row[]>(`SELECT * FROM ${q(table)} WHERE ${q(column)} = ? ORDER BY ${q('Id')}`, [id])).map(
      ({ Id: _id, ...row }) => row,
    );
  const [customer] = await rowsOf('coworker', 'Id', template);
  const [contract] = await rowsOf('coworkercontract', 'CoworkerId', template);
  const [contractProduct] = await rowsOf('contractproduct', 'CoworkerId', template);
  const sales = await rowsOf('coworkerproduct', 'CoworkerId', template);
  const ids = [template];
  for (let first = 1; first < CUSTOMERS; first += 500) {
    const count = Math.min(500, CUSTOMERS - first);
    await dataSource.transaction(async (manager) => {
      const insert = async (table: string, rows: Row[]): Promise<Map<string, number>> => {
        const names = Object.keys(rows[0]);
        const tuple = `(${names.map(() => '?').join(', ')})`;
        for (let start = 0; start < rows.length; start += 200) {
          const batch = rows.slice(start, start + 200);
          await manager.query(
            `INSERT INTO ${q(table)} (${names.map(q).join(', ')}) VALUES ${batch.map(() => tuple).join(', ')}`,
            batch.flatMap((row) => names.map((name) => row[name])),
          );
        }
        const made = await manager.query<Array<{ id: number; u: string }>>(
          `SELECT ${q('Id')} AS id, ${q('UniqueId')} AS u FROM ${q(table)} WHERE ${q('UniqueId')} IN (${rows.map(() => '?').join(', ')})`,
          rows.map((row) => row.UniqueId),
        );
        return new Map(made.map((row) => [String(row.u), Number(row.id)]));
      };
      const customers = Array.from({ length: count }, (_, i) => ({
        ...customer,
        UniqueId: randomUUID(),
        FullName: `Billed ${first + i}`,
        Email: `billed${first + i}@bench.example`,
      }));
      const customerIds = await insert('coworker', customers);
      const newIds = customers.map((row) => customerIds.get(row.UniqueId)!);
      const contracts = newIds.map((id) => ({ ...contract, UniqueId: randomUUID(), CoworkerId: id }));
      const contractIds = await insert('coworkercontract', contracts);
      await insert(
        'contractproduct',
        contracts.map((row, i) => ({
          ...contractProduct,
          UniqueId: randomUUID(),
          CoworkerId: newIds[i],
          CoworkerContractId: contractIds.get(row.UniqueId)!,
        })),
      );
      await insert(
        'coworkerproduct',
        newIds.flatMap((id) => sales.map((row) => ({ ...row, UniqueId: randomUUID(), CoworkerId: id }))),
      );
      ids.push(...newIds);
    });
  }
  return ids;
}

/**
 * Seeds the customers, lets the service's automatic run bill them while GET by id is timed, then loads
 * plain invoice creates. `pid`: the service's (its process tree's memory is sampled).
 */
export async function billingRunBench(
  base: string,
  headers: Record<string, string>,
  getCase: Case,
  pid: number,
  config: Pick<AppConfig, 'database' | 'DATABASE_POOL_SIZE' | 'REQUEST_TIMEOUT_MS'>,
): Promise<BillingRunFigures> {
  const dataSource = await new DataSource(buildDataSourceOptions(config)).initialize();
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const q = (name: string) => dataSource.driver.escape(name);
  try {
    const now = new Date();
    const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    const business = await post(base, headers, '/api/sys/businesses', { Name: 'Bench Billing Run', CurrencyId: 1, CountryId: 1 });
    const tariff = await post(base, headers, '/api/billing/tariffs', {
      BusinessId: business,
      Name: 'Bench desk',
      Price: 99.5,
      CurrencyId: 1,
    });
    const product = await post(base, headers, '/api/billing/products', {
      BusinessId: business,
      Name: 'Bench coffee',
      SystemProductType: 99,
      Description: 'A coffee',
      DisplayOrder: 0,
      Price: 2.35,
      CurrencyId: 1,
      AvailableAs: 1,
    });
    const template = await post(base, headers, '/api/spaces/coworkers', {
      BusinessId: business,
      FullName: 'Billed 0',
      Email: 'billed0@bench.example',
    });
    const contract = await post(base, headers, '/api/billing/coworkercontracts', {
      CoworkerId: template,
      TariffId: tariff,
      StartDate: day(nextMonth),
      BillingDay: 1,
    });
    await post(base, headers, '/api/billing/contractproducts', {
      CoworkerContractId: contract,
      ProductId: product,
      Price: 15,
      Quantity: 1,
    });
    for (let i = 0; i < 2; i++)
      await post(base, headers, '/api/billing/coworkerproducts', { CoworkerId: template, ProductId: product, SaleDate: day(monthStart) });
    const seeding = Date.now();
    const customers = await cloneCustomers(dataSource, template);
    console.log(
      `billing run: seeded ${customers.length} customers (a contract, a contract product, 2 sales each) through the database in ${((Date.now() - seeding) / 1000).toFixed(1)} s`,
    );

    // GET by id with nothing else running: as long as the run will be measured, at least ROUNDS slices.
    await probe(agent, base, getCase, PROBE_SLICE_SECONDS, PROBE_RATE);
    const before = await probe(agent, base, getCase, 3 * DURATION, PROBE_RATE);
    const rssBeforeMb = treeResidentMemoryMb(pid);

    // Due from the 1st of this month: the service's next look (every second) bills the business.
    // As the service writes dates (Database.dateParam).
    const monthStartParam = monthStart.toISOString().replace('T', ' ').replace('Z', '');
    await dataSource.query(
      `UPDATE ${q('coworkercontract')} SET ${q('StartDate')} = ?, ${q('RenewalDate')} = ? WHERE ${q('CoworkerId')} IN (SELECT ${q('Id')} FROM ${q('coworker')} WHERE ${q('BusinessId')} = ?)`,
      [monthStartParam, monthStartParam, business],
    );
    const runOf = async () =>
      (
        await dataSource.query<Array<{ f: unknown }>>(
          `SELECT ${q('FinishedOn')} AS f FROM ${q('billingrun')} WHERE ${q('BusinessId')} = ?`,
          [business],
        )
      )[0];
    while (!(await runOf())) await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    let rssPeakMb = treeResidentMemoryMb(pid);
    const sampler = setInterval(() => (rssPeakMb = Math.max(rssPeakMb, treeResidentMemoryMb(pid))), 250);
    const during: number[] = [];
    let failed = 0;
    let finished = 0;
    // Slices of GETs until the run is recorded as finished; its end is the first look that sees it.
    void (async () => {
      while (!(await runOf())?.f) await new Promise((resolve) => setTimeout(resolve, 100));
      finished = performance.now();
    })();
    while (!finished) {
      const got = await probe(agent, base, getCase, PROBE_SLICE_SECONDS, PROBE_RATE);
      during.push(...got.latencies);
      failed += got.failed;
    }
    clearInterval(sampler);
    const seconds = (finished - started) / 1000;
    const count = async (sql: string) => Number((await dataSource.query<Array<{ n: number }>>(sql, [business]))[0].n);
    const invoices = await count(`SELECT COUNT(*) AS n FROM ${q('coworkerinvoice')} WHERE ${q('BusinessId')} = ?`);
    const lines = await count(
      `SELECT COUNT(*) AS n FROM ${q('coworkerinvoiceline')} l JOIN ${q('coworkerinvoice')} i ON i.${q('Id')} = l.${q('CoworkerInvoiceId')} WHERE i.${q('BusinessId')} = ?`,
    );
    if (invoices !== CUSTOMERS || lines !== 4 * CUSTOMERS)
      throw new Error(`the run made ${invoices} invoices and ${lines} lines; ${CUSTOMERS} invoices of 4 lines expected`);

    // Plain invoice creates through the API for the same customers, as the table's cases load the service.
    const create: Case = {
      name: 'POST create customer invoice',
      target: null,
      method: 'POST',
      path: () => '/api/billing/coworkerinvoices',
      headers: { ...headers, 'content-type': 'application/json' },
      body: () =>
        JSON.stringify({
          BusinessId: business,
          CoworkerId: customers[Math.floor(Math.random() * customers.length)],
          CurrencyId: 1,
          TotalAmount: 120,
        }),
    };
    await load(base, create, 2);
    const plainCreates = medianMeasure([
      await load(base, create, DURATION, pid),
      await load(base, create, DURATION, pid),
      await load(base, create, DURATION, pid),
    ]);
    const getBefore = latencyOf(before.latencies, before.failed);
    const getDuring = latencyOf(during, failed);
    return {
      customers: CUSTOMERS,
      invoices,
      lines,
      seconds,
      invoicesPerSecond: invoices / seconds,
      linesPerSecond: lines / seconds,
      rssBeforeMb: Math.round(rssBeforeMb),
      rssPeakMb: Math.round(rssPeakMb),
      plainCreates,
      ratio: invoices / seconds / plainCreates.rps,
      getBefore,
      getDuring,
      p99Ratio: getDuring.p99 / Math.max(0.01, getBefore.p99),
    };
  } finally {
    agent.destroy();
    await dataSource.destroy();
  }
}

/** The lines npm run bench prints of the figures. */
export function billingRunLines(f: BillingRunFigures): string[] {
  return [
    `${BILLING_RUN_CASE}: ${f.invoices} invoices (${f.lines} lines) in ${f.seconds.toFixed(1)} s = ${f.invoicesPerSecond.toFixed(0)} invoices/s, ${f.linesPerSecond.toFixed(0)} lines/s` +
      ` | rss (process tree) ${f.rssBeforeMb} MB before, ${f.rssPeakMb} MB at its highest during the run`,
    `  plain invoice creates (POST /api/billing/coworkerinvoices, ${CONNECTIONS} connections): ${f.plainCreates.rps.toFixed(0)} req/s p99 ${f.plainCreates.p99} ms` +
      ` | ratio run / creates ${f.ratio.toFixed(2)} (target ≥ ${INVOICES_RATIO_TARGET}: ${f.ratio >= INVOICES_RATIO_TARGET ? 'met' : 'NOT met'})`,
    `  GET one product at ${PROBE_RATE} req/s: p99 ${f.getBefore.p99} ms before the run (p50 ${f.getBefore.p50}), ${f.getDuring.p99} ms during it (p50 ${f.getDuring.p50}, max ${f.getDuring.max})` +
      ` | p99 ratio ${f.p99Ratio.toFixed(2)} (target ≤ ${BILLING_P99_TARGET}: ${f.p99Ratio <= BILLING_P99_TARGET ? 'met' : 'NOT met'})` +
      (f.getBefore.failed || f.getDuring.failed ? ` | GETs failed: ${f.getBefore.failed} before, ${f.getDuring.failed} during` : ''),
  ];
}
