// npm run bench: the service against a bare Fastify baseline doing the same queries, loaded alternately
// in one run with autocannon. SQLite by default; DATABASE_URL=mysql://… for MySQL/MariaDB.
// Load generator on core 0, both servers on core 1 (taskset), so the ratio compares like with like.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import mysql from 'mysql2/promise';
import { parseDatabaseUrl } from '../src/config/configuration.js';
import { BENCH_EMAIL, BENCH_PASSWORD, BUSINESSES, PRODUCTS, seed } from './seed.js';

const dist = join(import.meta.dirname, '..');
const resultsDir = join(dist, '..', 'bench', 'results');
const hasTaskset = spawnSync('taskset', ['-V']).status === 0;

// Re-run pinned to core 0 so the load generator does not share the servers' core.
if (hasTaskset && process.env.BENCH_PINNED !== '1') {
  const child = spawnSync('taskset', ['-c', '0', process.execPath, ...process.argv.slice(1)], { stdio: 'inherit', env: { ...process.env, BENCH_PINNED: '1' } });
  process.exit(child.status ?? 1);
}

const DURATION = Number(process.env.BENCH_DURATION ?? 6);
// Each case runs this many rounds (ours and bare alternately); the medians are reported, since a
// shared machine slows one server or the other for seconds at a time.
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const JWT_SECRET = 'bench-secret-bench-secret-bench-secret-0123';
const BASIC = `Basic ${Buffer.from(`${BENCH_EMAIL}:${BENCH_PASSWORD}`).toString('base64')}`;

const freePort = () => new Promise<number>((resolve) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    server.close(() => resolve(port));
  });
});

async function prepareDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const given = process.env.DATABASE_URL;
  if (!given || given.startsWith('sqlite')) {
    const dir = mkdtempSync(join(tmpdir(), 'coworking-bench-'));
    return { url: `sqlite:${join(dir, 'bench.sqlite')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const server = new URL(given);
  const name = `bench_${Date.now().toString(36)}`;
  const admin = await mysql.createConnection({ host: server.hostname, port: Number(server.port || 3306), user: decodeURIComponent(server.username), password: decodeURIComponent(server.password) });
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  const url = new URL(server.toString());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await admin.end();
    },
  };
}

/**
 * Starts a server on core 1; its log (warnings and errors only) goes to bench/results/<name>.log. It gets
 * this process's environment without its V8 and malloc settings, and then `env`.
 */
function start(script: string, env: Record<string, string>, name: string): ChildProcess {
  const { NODE_OPTIONS: _nodeOptions, MALLOC_ARENA_MAX: _arenas, ...inherited } = process.env;
  const command = hasTaskset ? 'taskset' : process.execPath;
  const args = hasTaskset ? ['-c', '1', process.execPath, script] : [script];
  mkdirSync(resultsDir, { recursive: true });
  const log = openSync(join(resultsDir, `${name}.log`), 'w');
  return spawn(command, args, { env: { ...inherited, ...env }, stdio: ['ignore', log, log] });
}

async function waitFor(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited (${child.exitCode})`);
    try {
      const res = await fetch(url);
      if (res.status < 500) return;
    } catch {
      /* not yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not come up`);
}

function residentMemoryMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

interface Case {
  name: string;
  target: number | null;
  method: 'GET' | 'POST';
  path: () => string;
  headers: Record<string, string>;
  body?: () => string;
}

interface Measure {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  rssMb?: number;
}

interface Round {
  ours: Measure;
  bare: Measure;
  ratio: number;
  p99Ratio: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The median of each figure over the rounds; the highest resident memory seen. */
function medianMeasure(measures: Measure[]): Measure {
  const of = (pick: (m: Measure) => number) => median(measures.map(pick));
  const rss = measures.map((m) => m.rssMb ?? 0);
  return {
    rps: of((m) => m.rps), p50: of((m) => m.p50), p99: of((m) => m.p99),
    non2xx: measures.reduce((sum, m) => sum + m.non2xx, 0), errors: measures.reduce((sum, m) => sum + m.errors, 0),
    rssMb: measures[0].rssMb === undefined ? undefined : Math.max(...rss),
  };
}

/**
 * The process that serves: started the README's way, the entry point relaunches itself with the runtime
 * settings (src/runtime-settings.ts) and waits, so the service is its one child.
 */
function servingProcess(pid: number): number {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    return children.length === 1 ? Number(children[0]) : pid;
  } catch {
    return pid;
  }
}

function copyDatabase(file: string): string {
  const copy = file.replace(/\.sqlite$/, '-bare.sqlite');
  copyFileSync(file, copy);
  return copy;
}

async function load(base: string, c: Case, duration: number, pid?: number): Promise<Measure> {
  // Let the previous run's last requests finish before this one starts.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  let rssMb = 0;
  const sampler = pid ? setInterval(() => (rssMb = Math.max(rssMb, residentMemoryMb(pid))), 250) : undefined;
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration,
    requests: [{
      method: c.method,
      headers: c.headers,
      setupRequest: (request) => ({ ...request, path: c.path(), body: c.body?.() }),
    }],
  });
  if (sampler) clearInterval(sampler);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors + result.timeouts, rssMb: pid ? Math.round(rssMb) : undefined };
}

const randomProduct = () => 1 + Math.floor(Math.random() * PRODUCTS);
const randomBusiness = () => 1 + Math.floor(Math.random() * BUSINESSES);
let created = 0;
const productBody = () => JSON.stringify({
  BusinessId: randomBusiness(), Name: `Bench created ${++created}`, SystemProductType: 99, Description: 'Created by the benchmark',
  DisplayOrder: 0, Price: 12.5, CurrencyId: 1, AvailableAs: 1,
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
  const env = { DATABASE_URL: db.url, JWT_SECRET, LOG_LEVEL: 'warn', NODE_ENV: 'production', RATE_LIMIT_PER_MINUTE: '10000000', RATE_LIMIT_TOKEN_PER_MINUTE: '10000000' };
  // The service is started as the README starts it (node dist/src/main.js, no NODE_OPTIONS): it applies its
  // runtime settings itself. BENCH_SERVICE_NODE_OPTIONS gives it NODE_OPTIONS of its own instead.
  const serviceOptions: Record<string, string> = process.env.BENCH_SERVICE_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVICE_NODE_OPTIONS } : {};
  const ours = start(join(dist, 'src', 'main.js'), { ...env, ...serviceOptions, PORT: String(ourPort) }, 'service');
  // On SQLite each server gets its own copy of the seeded file, so neither waits on the other's locks.
  const bareUrl = target.type === 'sqlite' ? `sqlite:${copyDatabase(target.database)}` : db.url;
  const bare = start(join(dist, 'bench', 'bare-server.js'), { ...env, DATABASE_URL: bareUrl, PORT: String(barePort), BENCH_BASIC_HEADER: BASIC }, 'bare');
  children.push(ours, bare);
  const ourBase = `http://127.0.0.1:${ourPort}`;
  const bareBase = `http://127.0.0.1:${barePort}`;
  await waitFor(`${ourBase}/health`, ours);
  await waitFor(`${bareBase}/api/billing/products/1`, bare);
  const servingPid = servingProcess(ours.pid!);

  const tokenResponse = await fetch(`${ourBase}/api/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: BENCH_EMAIL, password: BENCH_PASSWORD }),
  });
  const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
  const bearer = { authorization: `Bearer ${token}` };
  const form = new URLSearchParams({ grant_type: 'password', username: BENCH_EMAIL, password: BENCH_PASSWORD }).toString();

  const cases: Case[] = [
    { name: 'GET one product, bearer', target: 0.6, method: 'GET', path: () => `/api/billing/products/${randomProduct()}`, headers: bearer },
    { name: 'GET one product, basic', target: 0.5, method: 'GET', path: () => `/api/billing/products/${randomProduct()}`, headers: { authorization: BASIC } },
    { name: 'GET 25 products, filter + count', target: 0.5, method: 'GET', path: () => `/api/billing/products?Product_Business=${randomBusiness()}&size=25&page=${1 + Math.floor(Math.random() * 20)}`, headers: bearer },
    { name: 'POST create product', target: 0.4, method: 'POST', path: () => '/api/billing/products', headers: { ...bearer, 'content-type': 'application/json' }, body: productBody },
    { name: 'POST /api/token (password)', target: null, method: 'POST', path: () => '/api/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: () => form },
  ];

  // BENCH_CASES=get,list runs only the cases whose names contain one of the words (case-insensitive).
  const only = (process.env.BENCH_CASES ?? '').toLowerCase().split(',').filter(Boolean);
  const selected = only.length ? cases.filter((c) => only.some((word) => c.name.toLowerCase().includes(word))) : cases;
  const rows: Array<{ case: string; target: number | null; ours: Measure; bare: Measure; ratio: number; p99Ratio: number; rounds: Round[] }> = [];
  for (const c of selected) {
    // A short warm-up of each, then the measured rounds, alternating which goes first.
    await load(ourBase, c, 2);
    await load(bareBase, c, 2);
    const rounds: Round[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      let oursMeasure: Measure;
      let bareMeasure: Measure;
      if (round % 2 === 0) {
        oursMeasure = await load(ourBase, c, DURATION, servingPid);
        bareMeasure = await load(bareBase, c, DURATION);
      } else {
        bareMeasure = await load(bareBase, c, DURATION);
        oursMeasure = await load(ourBase, c, DURATION, servingPid);
      }
      rounds.push({ ours: oursMeasure, bare: bareMeasure, ratio: oursMeasure.rps / bareMeasure.rps, p99Ratio: oursMeasure.p99 / Math.max(1, bareMeasure.p99) });
    }
    const oursMeasure = medianMeasure(rounds.map((r) => r.ours));
    const bareMeasure = medianMeasure(rounds.map((r) => r.bare));
    const row = { case: c.name, target: c.target, ours: oursMeasure, bare: bareMeasure, ratio: median(rounds.map((r) => r.ratio)), p99Ratio: median(rounds.map((r) => r.p99Ratio)), rounds };
    rows.push(row);
    console.log(
      `${c.name.padEnd(34)} ours ${oursMeasure.rps.toFixed(0).padStart(6)} req/s p50 ${String(oursMeasure.p50).padStart(3)} ms p99 ${String(oursMeasure.p99).padStart(4)} ms` +
        ` | bare ${bareMeasure.rps.toFixed(0).padStart(6)} req/s p50 ${String(bareMeasure.p50).padStart(3)} ms p99 ${String(bareMeasure.p99).padStart(4)} ms` +
        ` | ratio ${row.ratio.toFixed(2)}${c.target ? ` (target ≥ ${c.target})` : ''} p99× ${row.p99Ratio.toFixed(1)} | rss ${oursMeasure.rssMb} MB` +
        (oursMeasure.non2xx || oursMeasure.errors ? ` | ours non-2xx ${oursMeasure.non2xx}, errors ${oursMeasure.errors}` : ''),
    );
  }
  // The entry point that relaunched itself with the runtime settings only waits; its memory is apart.
  const launcherRssMb = servingPid === ours.pid ? null : Math.round(residentMemoryMb(ours.pid!));
  if (launcherRssMb !== null) console.log(`rss is the serving process's; the entry point that started it with the runtime settings holds ${launcherRssMb} MB more`);
  const file = join(resultsDir, `${target.type}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ database: target.type, durationSeconds: DURATION, rounds: ROUNDS, connections: CONNECTIONS, pinned: hasTaskset, serviceEnvironment: serviceOptions, launcherRssMb, rows }, null, 2));
  console.log(`written ${file}`);
} finally {
  for (const child of children) child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 500));
  await db.drop();
}
