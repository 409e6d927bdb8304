// npm run bench:scale: how the cost of a request grows with the data. Two databases are seeded through
// SQL (multi-row INSERTs, not the API): 10,000 invoices and 10,000 products, and 1,000,000 invoices and
// 100,000 products, each across 20 businesses. One service runs on each, both on one core (taskset); each
// case loads them alternately and compares the large database's cost (1 / requests per second) with the
// small one's. SQLite by default; DATABASE_URL=mysql://… for MySQL/MariaDB.
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDatabaseUrl } from '../src/config/configuration.js';
import { runtimeEnvironment } from '../src/runtime-settings.js';
import {
  bearerFor,
  CONNECTIONS,
  dist,
  DURATION,
  freePort,
  hasTaskset,
  JWT_SECRET,
  load,
  median,
  medianMeasure,
  pinLoadGenerator,
  prepareDatabase,
  resultsDir,
  ROUNDS,
  selectCases,
  start,
  waitFor,
  type Case,
  type Measure,
} from './harness.js';
import { BENCH_EMAIL, BENCH_PASSWORD, BUSINESSES, DUE_DATE_DAYS, FIRST_DUE_DATE, seed, type SeedSizes } from './seed.js';

pinLoadGenerator();

const SIZES: Record<'small' | 'large', SeedSizes> = {
  small: { invoices: 10_000, products: 10_000 },
  large: { invoices: Number(process.env.BENCH_SCALE_INVOICES ?? 1_000_000), products: Number(process.env.BENCH_SCALE_PRODUCTS ?? 100_000) },
};
type Size = keyof typeof SIZES;

interface Server {
  size: Size;
  base: string;
  child: ChildProcess;
  pid: number;
  headers: Record<string, string>;
  references: { currency: number; country: number };
}

/** A case whose request depends on the database it goes to (ids, businesses). */
interface ScaleCase {
  name: string;
  /** What the target compares: this case at both sizes, or with another case on the large database. */
  target?: { maxCostRatio: number } | { maxRatioTo: string; max: number };
  make: (server: Server) => Omit<Case, 'name' | 'target' | 'headers'>;
}

const day = (offset: number) => new Date(FIRST_DUE_DATE + offset * 86_400_000).toISOString().slice(0, 10);
const randomInt = (n: number) => 1 + Math.floor(Math.random() * n);
const businessQuery = () => `Invoice_Business=${randomInt(BUSINESSES)}`;
let created = 0;

const cases: ScaleCase[] = [
  {
    name: 'GET invoice by id',
    target: { maxCostRatio: 1.5 },
    make: (server) => ({ method: 'GET', path: () => `/api/billing/invoices/${randomInt(SIZES[server.size].invoices)}` }),
  },
  {
    name: 'POST create invoice',
    target: { maxCostRatio: 1.5 },
    make: (server) => ({
      method: 'POST',
      path: () => '/api/billing/invoices',
      body: () =>
        JSON.stringify({
          BusinessId: randomInt(BUSINESSES),
          CurrencyId: server.references.currency,
          BillToCountryId: server.references.country,
          BillToName: `Created ${++created}`,
          BillToAddress: '2 Low Road',
          BillToCity: 'Leeds',
          BillToPostCode: 'LS1 1AA',
          TotalAmount: 120,
          TaxAmount: 20,
          DueDate: `${day(randomInt(DUE_DATE_DAYS))}T00:00:00Z`,
        }),
    }),
  },
  {
    name: 'page 1 of a business, with count',
    make: () => ({ method: 'GET', path: () => `/api/billing/invoices?${businessQuery()}&size=25&page=1` }),
  },
  {
    name: 'page 200 of a business, with count',
    target: { maxRatioTo: 'page 1 of a business, with count', max: 2 },
    make: () => ({ method: 'GET', path: () => `/api/billing/invoices?${businessQuery()}&size=25&page=200` }),
  },
  {
    name: 'business, 30 days of DueDate, count',
    make: () => ({
      method: 'GET',
      path: () => {
        const from = randomInt(DUE_DATE_DAYS - 30);
        return `/api/billing/invoices?${businessQuery()}&from_Invoice_DueDate=${day(from)}&to_Invoice_DueDate=${day(from + 29)}&size=25`;
      },
    }),
  },
  {
    name: '7 days of DueDate, all, count',
    make: () => ({
      method: 'GET',
      path: () => {
        const from = randomInt(DUE_DATE_DAYS - 7);
        return `/api/billing/invoices?from_Invoice_DueDate=${day(from)}&to_Invoice_DueDate=${day(from + 6)}&size=25`;
      },
    }),
  },
];

const databases: Array<{ drop: () => Promise<void> }> = [];
const children: ChildProcess[] = [];
try {
  const servers = {} as Record<Size, Server>;
  let type = 'sqlite';
  for (const size of ['small', 'large'] as const) {
    const db = await prepareDatabase(`scale_${size}`);
    databases.push(db);
    const target = parseDatabaseUrl(db.url);
    type = target.type;
    const seeded = Date.now();
    await seed({ database: target, DATABASE_POOL_SIZE: 10, REQUEST_TIMEOUT_MS: 10_000 }, SIZES[size]);
    console.log(
      `seeded ${target.type} (${size}): ${SIZES[size].invoices} invoices, ${SIZES[size].products} products in ${((Date.now() - seeded) / 1000).toFixed(1)} s`,
    );
    const port = await freePort();
    const child = start(
      join(dist, 'src', 'main.js'),
      {
        ...runtimeEnvironment(),
        DATABASE_URL: db.url,
        JWT_SECRET,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
        PORT: String(port),
        RATE_LIMIT_PER_MINUTE: '10000000',
        RATE_LIMIT_TOKEN_PER_MINUTE: '10000000',
      },
      `scale-${size}`,
    );
    children.push(child);
    const base = `http://127.0.0.1:${port}`;
    await waitFor(`${base}/health`, child);
    const headers = await bearerFor(base, BENCH_EMAIL, BENCH_PASSWORD);
    const idOf = async (path: string) =>
      ((await (await fetch(`${base}${path}`, { headers })).json()) as { Records: Array<{ Id: number }> }).Records[0].Id;
    servers[size] = {
      size,
      base,
      child,
      pid: child.pid!,
      headers: { ...headers, 'content-type': 'application/json' },
      references: {
        currency: await idOf('/api/sys/currencies?Currency_Code=GBP'),
        country: await idOf('/api/sys/countries?Country_TwoDigitsCode=GB'),
      },
    };
  }
  console.log(
    `each case: ${ROUNDS} rounds of ${DURATION} s on each database, alternating, ${CONNECTIONS} connections; medians over the rounds`,
  );

  const rows: Array<{ case: string; small: Measure; large: Measure; costRatio: number; target?: ScaleCase['target'] }> = [];
  for (const c of selectCases(cases)) {
    const measures: Record<Size, Measure[]> = { small: [], large: [] };
    const caseFor = (server: Server): Case => ({ name: c.name, target: null, headers: server.headers, ...c.make(server) });
    for (const server of Object.values(servers)) await load(server.base, caseFor(server), 1);
    for (let round = 0; round < ROUNDS; round++) {
      const order: Size[] = round % 2 === 0 ? ['small', 'large'] : ['large', 'small'];
      for (const size of order) measures[size].push(await load(servers[size].base, caseFor(servers[size]), DURATION, servers[size].pid));
    }
    const small = medianMeasure(measures.small);
    const large = medianMeasure(measures.large);
    const costRatio = median(measures.small.map((m, i) => m.rps / measures.large[i].rps));
    rows.push({ case: c.name, small, large, costRatio, target: c.target });
    const figures = (m: Measure) =>
      `${m.rps.toFixed(0).padStart(6)} req/s p50 ${String(m.p50).padStart(4)} ms p99 ${String(m.p99).padStart(5)} ms`;
    const failures = [small, large].some((m) => m.non2xx || m.errors)
      ? ` | non-2xx ${small.non2xx}/${large.non2xx}, errors ${small.errors}/${large.errors}`
      : '';
    console.log(
      `${c.name.padEnd(37)} 10k ${figures(small)} | ${SIZES.large.invoices / 1000}k ${figures(large)} | cost× ${costRatio.toFixed(2)}${c.target && 'maxCostRatio' in c.target ? ` (target ≤ ${c.target.maxCostRatio})` : ''}${failures}`,
    );
  }
  for (const row of rows) {
    const target = row.target;
    if (!target || !('maxRatioTo' in target)) continue;
    const other = rows.find((r) => r.case === target.maxRatioTo);
    if (!other) continue;
    for (const size of ['small', 'large'] as const) {
      const ratio = other[size].rps / row[size].rps;
      console.log(`${row.case} costs ${ratio.toFixed(2)}× ${other.case} at ${SIZES[size].invoices} invoices (target ≤ ${target.max})`);
    }
  }
  const rss = Object.values(servers)
    .map((server) => `${server.size} ${Math.max(...rows.map((r) => r[server.size].rssMb ?? 0))} MB`)
    .join(', ');
  console.log(`highest resident memory of the serving processes: ${rss}`);
  const file = join(resultsDir, `scale-${type}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      { database: type, sizes: SIZES, durationSeconds: DURATION, rounds: ROUNDS, connections: CONNECTIONS, pinned: hasTaskset, rows },
      null,
      2,
    ),
  );
  console.log(`written ${file}`);
} finally {
  for (const child of children) child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 1000));
  for (const db of databases) await db.drop();
}
