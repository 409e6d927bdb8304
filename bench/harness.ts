// What the benchmarks share: the database to seed, starting servers on their own core, loading them
// with autocannon and reading their resident memory.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import mysql from 'mysql2/promise';
import { lowerHelperThreads } from '../src/platform/idle-priority.js';

export const dist = join(import.meta.dirname, '..');
export const resultsDir = join(dist, '..', 'bench', 'results');
export const hasTaskset = spawnSync('taskset', ['-V']).status === 0;
/** The core the servers are pinned to (where taskset is found); the load generator has core 0. */
export const SERVER_CORE = 1;

/**
 * Re-runs this script pinned to core 0, so the load generator does not share the servers' core. Its own
 * helper threads (V8's compilations) wait for its main thread, as the service's do: otherwise a
 * compilation of the generator's delays its reading of answers and counts as the server's latency.
 */
export function pinLoadGenerator(): void {
  if (process.env.BENCH_PINNED === '1') lowerHelperThreads();
  if (hasTaskset && process.env.BENCH_PINNED !== '1') {
    const child = spawnSync('taskset', ['-c', '0', process.execPath, ...process.argv.slice(1)], {
      stdio: 'inherit',
      env: { ...process.env, BENCH_PINNED: '1' },
    });
    process.exit(child.status ?? 1);
  }
}

export const DURATION = Number(process.env.BENCH_DURATION ?? 6);
// Each case runs this many rounds (the servers alternately); the medians are reported, since a
// shared machine slows one server or the other for seconds at a time.
export const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
export const JWT_SECRET = 'bench-secret-bench-secret-bench-secret-0123';

export const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** A fresh database: a SQLite file in a temporary folder, or a new database on DATABASE_URL's server. */
export async function prepareDatabase(label = 'bench'): Promise<{ url: string; drop: () => Promise<void> }> {
  const given = process.env.DATABASE_URL;
  if (!given || given.startsWith('sqlite')) {
    const dir = mkdtempSync(join(tmpdir(), 'coworking-bench-'));
    return { url: `sqlite:${join(dir, `${label}.sqlite`)}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const server = new URL(given);
  const name = `${label}_${Date.now().toString(36)}`;
  const admin = await mysql.createConnection({
    host: server.hostname,
    port: Number(server.port || 3306),
    user: decodeURIComponent(server.username),
    password: decodeURIComponent(server.password),
  });
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
 * Starts a server on SERVER_CORE; its log (warnings and errors only) goes to bench/results/<name>.log. It gets
 * this process's environment without its V8 and malloc settings, and then `env`. With `npm`, the script is
 * an npm script (`npm run <script>`, as the README starts the service), which npm runs from the repository.
 */
export function start(script: string, env: Record<string, string>, name: string, nodeFlags: string[] = [], npm = false): ChildProcess {
  const { NODE_OPTIONS: _nodeOptions, MALLOC_ARENA_MAX: _arenas, MALLOC_MMAP_THRESHOLD_: _threshold, ...inherited } = process.env;
  const program = npm ? ['npm', 'run', script] : [process.execPath, ...nodeFlags, script];
  const [command, ...args] = hasTaskset ? ['taskset', '-c', String(SERVER_CORE), ...program] : program;
  mkdirSync(resultsDir, { recursive: true });
  const log = openSync(join(resultsDir, `${name}.log`), 'w');
  return spawn(command, args, { cwd: join(dist, '..'), env: { ...inherited, ...env }, stdio: ['ignore', log, log] });
}

/** Stops a server started by `start` and waits for it. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

export async function waitFor(url: string, child: ChildProcess): Promise<void> {
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

export function residentMemoryMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** A process's resident and private (unshared) memory, kB, from smaps_rollup; VmRSS for both where it cannot be read. */
function residentAndPrivateKb(pid: number): { rss: number; own: number } {
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(rollup)?.[1] ?? 0);
    return { rss: field('Rss'), own: field('Private_Clean') + field('Private_Dirty') };
  } catch {
    const kb = residentMemoryMb(pid) * 1024;
    return { rss: kb, own: kb };
  }
}

/** A process and all its descendants. */
const processTree = (pid: number): number[] => [pid, ...childProcesses(pid).flatMap(processTree)];

/**
 * The resident memory of a process and all its descendants (the service's PDF process; npm and the
 * service it runs), MB, as a container's limit counts it: pages the processes share (the node binary
 * they all map) counted once. That is the largest process's resident memory plus the others' own pages
 * (npm's tree: 69 MB resident for npm alone, 51 MB of it the node binary the service maps too).
 */
export function treeResidentMemoryMb(pid: number): number {
  const all = processTree(pid)
    .map(residentAndPrivateKb)
    .sort((a, b) => b.rss - a.rss);
  if (!all.length) return 0;
  return (all[0].rss + all.slice(1).reduce((sum, one) => sum + one.own, 0)) / 1024;
}

/** The pids of a process's children (Linux's /proc; none where it cannot be read). */
export function childProcesses(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

export interface Case {
  name: string;
  target: number | null;
  method: 'GET' | 'POST';
  path: () => string;
  headers: Record<string, string>;
  /** Headers that differ from request to request (an Idempotency-Key), added to `headers`. */
  requestHeaders?: () => Record<string, string>;
  body?: () => string;
  /** The name of another case whose load on the service is the baseline, instead of the bare server's. */
  baseline?: string;
  /** Served by the instance started with the README's settings (LOG_LEVEL info: a line per request). */
  readmeSettings?: boolean;
}

export interface Measure {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  rssMb?: number;
  /** CPU time per answered request, in µs: of the server, and of the local MariaDB server (when there is one). */
  cpuUs?: number;
  dbCpuUs?: number;
}

/** User + system CPU time of a process so far, in µs (from /proc; 0 when it cannot be read). */
export function cpuMicros(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return 0;
  }
}

/** The local MariaDB/MySQL server's pid, when the database is on this machine. */
/**
 * The pid of the database server `url` names, from its own `@@pid_file` (pidof alone may pick another
 * server on the machine: a Galera test's nodes); undefined when it cannot be read.
 */
export async function databaseServerPid(url: string): Promise<number | undefined> {
  const connection = await mysql.createConnection(url);
  try {
    const [rows] = await connection.query<mysql.RowDataPacket[]>('SELECT @@pid_file AS file');
    const pid = Number(readFileSync(String(rows[0].file), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 && cpuMicros(pid) > 0 ? pid : undefined;
  } catch {
    return undefined;
  } finally {
    await connection.end();
  }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The median of each figure over the rounds; the highest resident memory seen. */
export function medianMeasure(measures: Measure[]): Measure {
  const of = (pick: (m: Measure) => number) => median(measures.map(pick));
  const rss = measures.map((m) => m.rssMb ?? 0);
  return {
    rps: of((m) => m.rps),
    p50: of((m) => m.p50),
    p99: of((m) => m.p99),
    non2xx: measures.reduce((sum, m) => sum + m.non2xx, 0),
    errors: measures.reduce((sum, m) => sum + m.errors, 0),
    rssMb: measures[0].rssMb === undefined ? undefined : Math.max(...rss),
    cpuUs: measures[0].cpuUs === undefined ? undefined : of((m) => m.cpuUs ?? 0),
    dbCpuUs: measures[0].dbCpuUs === undefined ? undefined : of((m) => m.dbCpuUs ?? 0),
  };
}

/**
 * Loads `base` with one case for `duration` seconds: the CPU time of `pid` (and of the database server),
 * and the resident memory of `treePid`'s process tree (`pid`'s by default), sampled meanwhile.
 */
export async function load(base: string, c: Case, duration: number, pid?: number, databasePid?: number, treePid = pid): Promise<Measure> {
  // Let the previous run's last requests finish before this one starts.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const cpuBefore = [cpuMicros(pid), cpuMicros(databasePid)];
  let rssMb = 0;
  const sampler = pid ? setInterval(() => (rssMb = Math.max(rssMb, treeResidentMemoryMb(treePid ?? pid))), 250) : undefined;
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration,
    requests: [
      {
        method: c.method,
        headers: c.headers,
        setupRequest: (request) => ({
          ...request,
          path: c.path(),
          body: c.body?.(),
          ...(c.requestHeaders ? { headers: { ...request.headers, ...c.requestHeaders() } } : {}),
        }),
      },
    ],
  });
  if (sampler) clearInterval(sampler);
  const answered = Math.max(1, result.requests.total);
  const perRequest = (after: number, before: number) => (after && before ? Math.round((after - before) / answered) : undefined);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    rssMb: pid ? Math.round(rssMb) : undefined,
    cpuUs: perRequest(cpuMicros(pid), cpuBefore[0]),
    dbCpuUs: perRequest(cpuMicros(databasePid), cpuBefore[1]),
  };
}

/** A bearer token for the seeded administrator. */
export async function bearerFor(base: string, username: string, password: string): Promise<Record<string, string>> {
  const response = await fetch(`${base}/api/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username, password }),
  });
  const { access_token: token } = (await response.json()) as { access_token: string };
  return { authorization: `Bearer ${token}` };
}

/**
 * BENCH_CASES=get,list keeps the cases whose names contain one of the words (case-insensitive); a word
 * written `=name` keeps only the case of exactly that name (`=POST create product`).
 */
export function selectCases<C extends { name: string }>(cases: C[]): C[] {
  const only = (process.env.BENCH_CASES ?? '').toLowerCase().split(',').filter(Boolean);
  const matches = (name: string, word: string) => (word.startsWith('=') ? name === word.slice(1) : name.includes(word));
  return only.length ? cases.filter((c) => only.some((word) => matches(c.name.toLowerCase(), word))) : cases;
}
