// npm test: unit tests, then every HTTP suite on in-memory SQLite and again on MariaDB when it is
// reachable (in CI it must be). Prints one closing line with the totals of all runs.
// `--unit` runs the unit tests only (npm run test:unit); `--only NAME…` only the files whose name
// contains one of the NAMEs, unit or HTTP (npm run test:one -- products).
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import mysql from 'mysql2/promise';
import { MYSQL_SERVER_URL } from './test-app.js';

const dist = join(import.meta.dirname, '..', '..');
const filesEndingWith = (dir: string, suffix: string) =>
  readdirSync(join(dist, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith(suffix))
    .map((file) => relative(process.cwd(), join(dist, dir, file)))
    .sort();

const totals = { passed: 0, failed: 0, skipped: 0 };

/**
 * Runs test files in one `node --test` process. With a `tag`, each line it prints is prefixed with it,
 * so that two runs side by side (SQLite and MariaDB) stay readable.
 */
function run(label: string, files: string[], env: Record<string, string> = {}, tag?: string): Promise<number> {
  console.log(`\n=== ${label}: ${files.length} files`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--test', '--test-concurrency=1', '--test-reporter=spec', ...files], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    let partial = '';
    child.stdout.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      output += text;
      if (!tag) return void process.stdout.write(chunk);
      const lines = (partial + text).split('\n');
      partial = lines.pop()!;
      process.stdout.write(lines.map((line) => `${tag} ${line}\n`).join(''));
    });
    child.on('close', (code) => {
      const count = (name: string) => Number(new RegExp(`^ℹ ${name} (\\d+)`, 'm').exec(output)?.[1] ?? 0);
      totals.passed += count('pass');
      totals.failed += count('fail') + count('cancelled');
      totals.skipped += count('skipped');
      resolve(code ?? 1);
    });
  });
}

async function mariaDbReachable(): Promise<boolean> {
  const url = new URL(MYSQL_SERVER_URL);
  try {
    const connection = await mysql.createConnection({
      host: url.hostname,
      port: Number(url.port || 3306),
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      connectTimeout: 3000,
    });
    await connection.end();
    return true;
  } catch {
    return false;
  }
}

const args = process.argv.slice(2);
const unitOnly = args.includes('--unit');
const names = args.includes('--only') ? args.filter((arg) => !arg.startsWith('--')) : [];
if (args.includes('--only') && !names.length) {
  console.error('--only needs a name: npm run test:one -- products');
  process.exit(2);
}
const chosen = (files: string[]) =>
  names.length ? files.filter((file) => names.some((name) => file.split('/').at(-1)!.includes(name))) : files;
const e2e = unitOnly ? [] : chosen(filesEndingWith('test', '.e2e-spec.js'));
const codes: number[] = [];
// Unit tests: beside their code in src/, and test/*.spec.js that need no server (the Dockerfile lint).
const unit = chosen([
  ...filesEndingWith('src', '.spec.js'),
  ...filesEndingWith('test', '.spec.js').filter((file) => !file.endsWith('.e2e-spec.js')),
]);
if (!unit.length && !e2e.length) {
  console.error(`No test file's name contains ${names.join(' or ')}`);
  process.exit(2);
}
// The unit tests and the HTTP suites on SQLite and on MariaDB run side by side (each suite has a
// database of its own and listens on a free port), which takes about two thirds of the time of one
// after the other; TEST_SERIAL=1 runs them one after the other, with unprefixed output.
const serial = process.env.TEST_SERIAL === '1';
const runs: Array<Promise<number>> = [];
const start = (label: string, env: Record<string, string>, tag: string, files = e2e) => {
  const running = run(label, files, env, serial ? undefined : tag);
  runs.push(running);
  return running;
};
if (unit.length) {
  const units = start('unit tests', {}, '[unit]', unit);
  if (serial) await units;
}
if (e2e.length) {
  const sqlite = start('HTTP suites on SQLite (in memory)', { TEST_DATABASE: 'sqlite' }, '[sqlite]');
  if (serial) await sqlite;
  if (await mariaDbReachable()) {
    void start(
      `HTTP suites on MariaDB (${new URL(MYSQL_SERVER_URL).host}, a fresh database per suite)`,
      { TEST_DATABASE: 'mysql' },
      '[mariadb]',
    );
  } else if (process.env.CI) {
    console.error(`MariaDB is not reachable at ${new URL(MYSQL_SERVER_URL).host}; CI needs it.`);
    codes.push(1);
  } else {
    console.log(`\nMariaDB is not reachable at ${new URL(MYSQL_SERVER_URL).host}: the MariaDB run is skipped.`);
  }
}
codes.push(...(await Promise.all(runs)));
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(codes.some((code) => code !== 0) || totals.failed > 0 ? 1 : 0);
