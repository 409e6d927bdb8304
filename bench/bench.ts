// npm run bench: the service against a bare Fastify baseline doing the same queries, loaded alternately
// in one run with autocannon. SQLite by default; DATABASE_URL=mysql://… for MySQL/MariaDB.
// Load generator on core 0, both servers on core 1 (taskset), so the ratio compares like with like.
import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDatabaseUrl } from '../src/config/configuration.js';
import { runtimeEnvironment } from '../src/runtime-settings.js';
import {
  bearerFor,
  childProcesses,
  CONNECTIONS,
  databaseServerPid,
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
  SERVER_CORE,
  start,
  stop,
  waitFor,
  type Case,
  type Measure,
} from './harness.js';
import { BILLING_RUN_CASE, BILLING_RUN_INTERVAL_SECONDS, billingRunBench, billingRunLines, type BillingRunFigures } from './billing-run.js';
import { memoryFigures } from './memory-figures.js';
import { PDF_CONTROL, PDF_P99_TARGET, pdfBench, type PdfFigures } from './pdf.js';
import { eInvoiceBench } from './einvoices.js';
import { BENCH_EMAIL, BENCH_PASSWORD, BUSINESSES, presence, PRODUCTS, seed, seedBookings } from './seed.js';
import { universalCreditCases } from './universal-credits.js';

pinLoadGenerator();

const BASIC = `Basic ${Buffer.from(`${BENCH_EMAIL}:${BENCH_PASSWORD}`).toString('base64')}`;

interface Round {
  ours: Measure;
  bare: Measure;
  ratio: number;
  p99Ratio: number;
}

function copyDatabase(file: string): string {
  const copy = file.replace(/\.sqlite$/, '-bare.sqlite');
  copyFileSync(file, copy);
  return copy;
}

const randomProduct = () => 1 + Math.floor(Math.random() * PRODUCTS);
const randomBusiness = () => 1 + Math.floor(Math.random() * BUSINESSES);
let created = 0;
const productBody = () =>
  JSON.stringify({
    BusinessId: randomBusiness(),
    Name: `Bench created ${++created}`,
    SystemProductType: 99,
    Description: 'Created by the benchmark',
    DisplayOrder: 0,
    Price: 12.5,
    CurrencyId: 1,
    AvailableAs: 1,
  });

const db = await prepareDatabase();
const children: ChildProcess[] = [];
try {
  const target = parseDatabaseUrl(db.url);
  console.log(`seeding ${target.type}: ${BUSINESSES} businesses, ${PRODUCTS} products, 100000 invoices …`);
  const seeded = Date.now();
  await seed({ database: target, DATABASE_POOL_SIZE: 10, REQUEST_TIMEOUT_MS: 10_000 });
  console.log(`seeded in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);
  console.log(`each case: ${ROUNDS} rounds of ${DURATION} s on each server, alternating; the figures are the medians over the rounds`);

  const [ourPort, barePort] = [await freePort(), await freePort()];
  const env = {
    DATABASE_URL: db.url,
    JWT_SECRET,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    RATE_LIMIT_PER_MINUTE: '10000000',
    RATE_LIMIT_TOKEN_PER_MINUTE: '10000000',
  };
  // The service is started as deployed: the image's command and ENV (src/runtime-settings.ts), one process.
  // BENCH_SERVICE_NODE_OPTIONS gives it NODE_OPTIONS of its own instead.
  const serviceOptions: Record<string, string> = process.env.BENCH_SERVICE_NODE_OPTIONS
    ? { NODE_OPTIONS: process.env.BENCH_SERVICE_NODE_OPTIONS }
    : {};
  // BENCH_SERVICE_NODE_FLAGS: Node flags for the service's command line
  // (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile it under the bench's load).
  const serviceFlags = (process.env.BENCH_SERVICE_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
  // Its automatic billing run looks every second (bench/billing-run.ts): one indexed query, nothing due until that case.
  const ours = start(
    join(dist, 'src', 'main.js'),
    { ...env, ...runtimeEnvironment(), ...serviceOptions, BILLING_RUN_INTERVAL_SECONDS, PORT: String(ourPort) },
    'service',
    serviceFlags,
  );
  // On SQLite each server gets its own copy of the seeded file, so neither waits on the other's locks.
  const bareUrl = target.type === 'sqlite' ? `sqlite:${copyDatabase(target.database)}` : db.url;
  // BENCH_BARE_NODE_FLAGS: the same for the bare server, to compare the two servers' profiles.
  const bareFlags = (process.env.BENCH_BARE_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
  const bare = start(
    join(dist, 'bench', 'bare-server.js'),
    { ...env, DATABASE_URL: bareUrl, PORT: String(barePort), BENCH_BASIC_HEADER: BASIC },
    'bare',
    bareFlags,
  );
  // A third instance as the README starts it (npm's start script, whose settings are its own), request log
  // included (LOG_LEVEL info), for the cases marked readmeSettings; its memory is npm's and the service's.
  // The other cases run at warn, the bare server logs nothing.
  const readmePort = await freePort();
  const readme = start(
    'start:prod',
    { ...env, ...serviceOptions, LOG_LEVEL: 'info', PORT: String(readmePort) },
    'service-readme',
    [],
    true,
  );
  children.push(ours, bare, readme);
  const readmeBase = `http://127.0.0.1:${readmePort}`;
  const ourBase = `http://127.0.0.1:${ourPort}`;
  const bareBase = `http://127.0.0.1:${barePort}`;
  await waitFor(`${ourBase}/health`, ours);
  await waitFor(`${bareBase}/api/billing/products/1`, bare);
  await waitFor(`${readmeBase}/health`, readme);
  const servingPid = ours.pid!;
  // npm's one child is the service (its script exec's node): its CPU is the service's.
  const readmeServingPid = childProcesses(readme.pid!)[0] ?? readme.pid!;
  // The database server's CPU per request is reported too: on one machine it competes with the servers.
  const databasePid = target.type === 'sqlite' ? undefined : await databaseServerPid(db.url);

  const bearer = await bearerFor(ourBase, BENCH_EMAIL, BENCH_PASSWORD);
  const form = new URLSearchParams({ grant_type: 'password', username: BENCH_EMAIL, password: BENCH_PASSWORD }).toString();

  // Bookings (docs/bookings.md): resources and customers with credit, so that every booking is priced and
  // spends a credit. Each booking takes the next hour of the next resource, so none overlaps another.
  const bookingSetup = await seedBookings(ourBase, bearer);
  let booked = 0;
  const bookingBody = () => {
    const n = booked++;
    const from = Date.UTC(2030, 0, 1) + Math.floor(n / bookingSetup.resources.length) * 3_600_000;
    return JSON.stringify({
      ResourceId: bookingSetup.resources[n % bookingSetup.resources.length],
      CoworkerId: bookingSetup.customers[n % bookingSetup.customers.length],
      FromTime: new Date(from).toISOString(),
      ToTime: new Date(from + 3_600_000).toISOString(),
    });
  };

  // Check-ins (docs/presence.md): the seeded customers, each on a day of its own per check-in, so every
  // check-in uses a new pass (rule 3). The counter is shared, so on MySQL the two servers never meet.
  const visitors = presence!.customers;
  let checkedIn = 0;
  const checkinBody = () => {
    const n = checkedIn++;
    const from = Date.UTC(2030, 0, 1) + Math.floor(n / visitors.length) * 86_400_000 + 9 * 3_600_000;
    return JSON.stringify({
      BusinessId: presence!.business,
      CoworkerId: visitors[n % visitors.length],
      FromTime: new Date(from).toISOString(),
      ToTime: new Date(from + 8 * 3_600_000).toISOString(),
      Source: 'Bench',
    });
  };

  const cases: Case[] = [
    {
      name: 'GET one product, bearer',
      target: 0.8,
      method: 'GET',
      path: () => `/api/billing/products/${randomProduct()}`,
      headers: bearer,
    },
    {
      name: 'GET one product, basic',
      target: 0.8,
      method: 'GET',
      path: () => `/api/billing/products/${randomProduct()}`,
      headers: { authorization: BASIC },
    },
    {
      name: 'GET 25 products, filter + count',
      target: 0.8,
      method: 'GET',
      path: () => `/api/billing/products?Product_Business=${randomBusiness()}&size=25&page=${1 + Math.floor(Math.random() * 20)}`,
      headers: bearer,
    },
    {
      name: 'POST create product',
      target: 0.8,
      method: 'POST',
      path: () => '/api/billing/products',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: productBody,
    },
    // The same create with a new Idempotency-Key each time: the service claims the key, then stores the
    // answer with the write (the bare server ignores the header), so the two create rows give its cost.
    {
      name: 'POST create product, Idempotency-Key',
      target: null,
      method: 'POST',
      path: () => '/api/billing/products',
      headers: { ...bearer, 'content-type': 'application/json' },
      requestHeaders: () => ({ 'idempotency-key': randomUUID() }),
      body: productBody,
    },
    {
      name: 'GET one product, README settings',
      target: 0.8,
      method: 'GET',
      path: () => `/api/billing/products/${randomProduct()}`,
      headers: bearer,
      readmeSettings: true,
    },
    {
      name: 'POST create product, README settings',
      target: 0.8,
      method: 'POST',
      path: () => '/api/billing/products',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: productBody,
      readmeSettings: true,
    },
    // No bare baseline: its ratio is to the service's own product create, measured in the same rounds.
    {
      name: 'POST create booking, spends credit',
      target: null,
      method: 'POST',
      path: () => '/api/spaces/bookings',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: bookingBody,
      baseline: 'POST create product',
    },
    {
      name: 'POST check-in, uses a pass',
      target: 0.8,
      method: 'POST',
      path: () => '/api/spaces/checkins',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: checkinBody,
    },
    {
      name: 'POST /api/token (password)',
      target: null,
      method: 'POST',
      path: () => '/api/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: () => form,
    },
    ...(await universalCreditCases(ourBase, bearer, 'POST create product')),
  ];

  const selected = selectCases(cases);
  const rows: Array<{
    case: string;
    target: number | null;
    baseline: string;
    readmeSettings?: boolean;
    ours: Measure;
    bare: Measure;
    ratio: number;
    p99Ratio: number;
    rounds: Round[];
  }> = [];
  for (const c of selected) {
    const [serviceBase, servicePid, serviceTree] = c.readmeSettings
      ? [readmeBase, readmeServingPid, readme.pid]
      : [ourBase, servingPid, servingPid];
    // A short warm-up of each, then the measured rounds, alternating which goes first.
    await load(serviceBase, c, 2);
    await load(bareBase, c, 2);
    const rounds: Round[] = [];
    // Against another case of the service (bookings have no bare counterpart): both on the service.
    const baseline = c.baseline ? cases.find((other) => other.name === c.baseline) : undefined;
    const [bareBaseUrl, bareCase, barePid, bareTree] = baseline
      ? [serviceBase, baseline, servicePid, serviceTree]
      : [bareBase, c, bare.pid, bare.pid];
    if (baseline) await load(serviceBase, baseline, 2);
    for (let round = 0; round < ROUNDS; round++) {
      let oursMeasure: Measure;
      let bareMeasure: Measure;
      if (round % 2 === 0) {
        oursMeasure = await load(serviceBase, c, DURATION, servicePid, databasePid, serviceTree);
        bareMeasure = await load(bareBaseUrl, bareCase, DURATION, barePid, databasePid, bareTree);
      } else {
        bareMeasure = await load(bareBaseUrl, bareCase, DURATION, barePid, databasePid, bareTree);
        oursMeasure = await load(serviceBase, c, DURATION, servicePid, databasePid, serviceTree);
      }
      rounds.push({
        ours: oursMeasure,
        bare: bareMeasure,
        ratio: oursMeasure.rps / bareMeasure.rps,
        p99Ratio: oursMeasure.p99 / Math.max(1, bareMeasure.p99),
      });
    }
    const oursMeasure = medianMeasure(rounds.map((r) => r.ours));
    const bareMeasure = medianMeasure(rounds.map((r) => r.bare));
    const row = {
      case: c.name,
      target: c.target,
      baseline: baseline?.name ?? 'bare',
      readmeSettings: c.readmeSettings,
      ours: oursMeasure,
      bare: bareMeasure,
      ratio: median(rounds.map((r) => r.ratio)),
      p99Ratio: median(rounds.map((r) => r.p99Ratio)),
      rounds,
    };
    rows.push(row);
    console.log(
      `${c.name.padEnd(34)} ours ${oursMeasure.rps.toFixed(0).padStart(6)} req/s p50 ${String(oursMeasure.p50).padStart(3)} ms p99 ${String(oursMeasure.p99).padStart(4)} ms` +
        ` | ${baseline ? `"${baseline.name}"` : 'bare'} ${bareMeasure.rps.toFixed(0).padStart(6)} req/s p50 ${String(bareMeasure.p50).padStart(3)} ms p99 ${String(bareMeasure.p99).padStart(4)} ms` +
        ` | ratio ${row.ratio.toFixed(2)}${c.target ? ` (target ≥ ${c.target})` : ''} p99× ${row.p99Ratio.toFixed(1)} | rss (process tree) ${oursMeasure.rssMb} MB, ${baseline ? 'baseline' : 'bare'} ${bareMeasure.rssMb} MB` +
        ` | CPU µs/req ours ${oursMeasure.cpuUs} bare ${bareMeasure.cpuUs}${databasePid ? `, MariaDB's ${oursMeasure.dbCpuUs ?? 'n/a'} / ${bareMeasure.dbCpuUs ?? 'n/a'}` : ''}` +
        (oursMeasure.non2xx || oursMeasure.errors ? ` | ours non-2xx ${oursMeasure.non2xx}, errors ${oursMeasure.errors}` : ''),
    );
  }
  // The invoice PDF (bench/pdf.ts): PDFs per second, and GET by id's p99 while PDFs are being made.
  let pdf: PdfFigures | null = null;
  if (selectCases([{ name: 'PDFs of a 20-line invoice' }]).length) {
    // The other servers have done their part. Left running, they sat idle on the service's core and,
    // some seconds after their load ended, V8 collected their heaps on five threads at the normal priority:
    // up to 80 ms of CPU at a time, which the service's request thread waited behind for a scheduler tick
    // per wake-up (docs/performance.md, "Figures of 2026-11-27, the third session").
    await Promise.all([stop(bare), stop(readme)]);
    // BENCH_PDF_CONTROL=spin: the printing slices only keep the service's core busy (bench/pdf.ts).
    const spin = PDF_CONTROL === 'spin' ? { core: hasTaskset ? SERVER_CORE : undefined } : undefined;
    if (spin)
      console.log(
        "control (BENCH_PDF_CONTROL=spin): no PDF is made in the measured slices; a process only spins on the service's core in the idle class",
      );
    pdf = await pdfBench(ourBase, bearer, cases[0], servingPid, spin);
    const within = pdf.p99Ratio <= PDF_P99_TARGET;
    console.log(
      `PDFs of a 20-line invoice: ${pdf.pdfsPerSecond.toFixed(1)} PDFs/s (print + download, ${pdf.printers} at a time, median ${pdf.printMedianMs.toFixed(0)} ms each)` +
        (pdf.requestThreadCpuMsPerPdf === undefined
          ? ''
          : ` | CPU per PDF: ${pdf.requestThreadCpuMsPerPdf.toFixed(1)} ms on the request thread, ${pdf.otherThreadsCpuMsPerPdf!.toFixed(1)} ms on its other threads and the PDF process`),
    );
    const { perPrinter, printers, medianMs } = pdf.turns;
    console.log(
      `  in turn across businesses: business 1's ${printers[0]} printers ${perPrinter[0].toFixed(2)} PDFs/s each (median ${medianMs[0].toFixed(0)} ms), business 2's ${printers[1]} printer ${perPrinter[1].toFixed(2)} PDFs/s` +
        ` (median ${medianMs[1].toFixed(0)} ms) | per printer 2 ÷ 1: ${(perPrinter[1] / Math.max(0.01, perPrinter[0])).toFixed(2)} (1 first come first served, up to ${printers[0]} in strict turns)`,
    );
    for (const [i, round] of pdf.rounds.entries()) {
      console.log(
        `  round ${i + 1}: GET one product p99 ${round.alone.p99} ms alone, ${round.whilePrinting.p99} ms while ${round.pdfsPerSecond.toFixed(1)} PDFs/s are made (p50 ${round.alone.p50} / ${round.whilePrinting.p50} ms)`,
      );
    }
    console.log(
      `GET one product at ${pdf.probeRate} req/s: p99 ${pdf.getAlone.p99} ms with no PDF work, ${pdf.getWhilePrinting.p99} ms while PDFs are made` +
        ` (${pdf.pdfsPerSecondUnderGets.toFixed(1)} PDFs/s meanwhile, ${pdf.printRate ? `started at a steady ${pdf.printRate}/s` : `${pdf.printers} printers as fast as answered`}) | p99 ratio ${pdf.p99Ratio.toFixed(2)} (target ≤ ${PDF_P99_TARGET}: ${within ? 'met' : 'NOT met'})` +
        (pdf.getAlone.failed || pdf.getWhilePrinting.failed
          ? ` | GETs failed: ${pdf.getAlone.failed} alone, ${pdf.getWhilePrinting.failed} while printing`
          : ''),
    );
  }
  // E-invoices (bench/einvoices.ts): documents per second of a 20-line invoice, UBL and Factur-X.
  const eInvoices = await eInvoiceBench(ourBase, bearer);
  // The automatic billing run over 10,000 customers (bench/billing-run.ts), alone on the service's core.
  let billingRun: BillingRunFigures | null = null;
  if (selectCases([{ name: BILLING_RUN_CASE }]).length) {
    await Promise.all([stop(bare), stop(readme)]);
    billingRun = await billingRunBench(ourBase, bearer, cases[0], servingPid, {
      database: target,
      DATABASE_POOL_SIZE: 10,
      REQUEST_TIMEOUT_MS: 10_000,
    });
    for (const line of billingRunLines(billingRun)) console.log(line);
  }
  // Memory as deployed (docs/operations.md, "Memory and GC"): the highest resident memory of each server's
  // process tree over the cases, against the bare server's over the same cases.
  const memory = memoryFigures(rows);
  if (memory) console.log(memory.line);
  const file = join(resultsDir, `${target.type}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      {
        database: target.type,
        pdfControl: PDF_CONTROL ?? null,
        durationSeconds: DURATION,
        rounds: ROUNDS,
        connections: CONNECTIONS,
        pinned: hasTaskset,
        serviceEnvironment: serviceOptions,
        memory: memory?.figures ?? null,
        rows,
        pdf,
        eInvoices,
        billingRun,
      },
      null,
      2,
    ),
  );
  console.log(`written ${file}`);
} finally {
  for (const child of children) child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 500));
  await db.drop();
}
