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

function run(label: string, files: string[], env: Record<string, string> = {}): Promise<number> {
  console.log(`\n=== ${label}: ${files.length} files`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--test', '--test-concurrency=1', '--test-reporter=spec', ...files], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      output += chunk.toString();
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
    const connection = await mysql.createConnection({ host: url.hostname, port: Number(url.port || 3306), user: decodeURIComponent(url.username), password: decodeURIComponent(url.password), connectTimeout: 3000 });
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
const chosen = (files: string[]) => (names.length ? files.filter((file) => names.some((name) => file.split('/').at(-1)!.includes(name))) : files);
const e2e = unitOnly ? [] : chosen(filesEndingWith('test', '.e2e-spec.js'));
const codes: number[] = [];
// Unit tests: beside their code in src/, and test/*.spec.js that need no server (the Dockerfile lint).
const unit = chosen([...filesEndingWith('src', '.spec.js'), ...filesEndingWith('test', '.spec.js').filter((file) => !file.endsWith('.e2e-spec.js'))]);
if (!unit.length && !e2e.length) {
  console.error(`No test file's name contains ${names.join(' or ')}`);
  process.exit(2);
}
if (unit.length) codes.push(await run('unit tests', unit));
if (e2e.length) codes.push(await run('HTTP suites on SQLite (in memory)', e2e, { TEST_DATABASE: 'sqlite' }));
if (!e2e.length) {
  // Nothing to run on MariaDB.
} else if (await mariaDbReachable()) {
  codes.push(await run(`HTTP suites on MariaDB (${new URL(MYSQL_SERVER_URL).host}, a fresh database per suite)`, e2e, { TEST_DATABASE: 'mysql' }));
} else if (process.env.CI) {
  console.error(`MariaDB is not reachable at ${new URL(MYSQL_SERVER_URL).host}; CI needs it.`);
  codes.push(1);
} else {
  console.log(`\nMariaDB is not reachable at ${new URL(MYSQL_SERVER_URL).host}: the MariaDB run is skipped.`);
}
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(codes.some((code) => code !== 0) || totals.failed > 0 ? 1 : 0);
