import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { onMySql, TEST_JWT_SECRET } from './support/test-app.js';
import { ROOT, startService } from './support/service.js';

// The Node that runs the suite (Node 24 in CI, .ci/run) runs the service on SQLite: docs/operations.md,
// "Image and Node versions". better-sqlite3 12 aborted Node 24 (`Assertion failed: (env) != nullptr`)
// when the collector finalized a prepared statement; 13 is built on Node-API and does not.

const STARTS = 20;
const ADMIN = { email: 'runtime@example.com', password: 'a long runtime secret' };
const basic = `Basic ${Buffer.from(`${ADMIN.email}:${ADMIN.password}`).toString('base64')}`;

describe(
  `the built service on SQLite, on this Node (${process.version})`,
  { skip: onMySql && 'SQLite only (TEST_DATABASE=mysql runs MariaDB)' },
  () => {
    let dir: string;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'cw-node-runtime-'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it(`starts, migrates, answers and stops cleanly ${STARTS} times in a row`, { timeout: STARTS * 60_000 }, async () => {
      for (let start = 1; start <= STARTS; start++) {
        // A database file of its own each time: every start runs all the migrations (many statements prepared and dropped).
        const database = join(dir, `start-${start}.sqlite`);
        const service = await startService(`start ${start}`, {
          DATABASE_URL: `sqlite:${database}`,
          JWT_SECRET: TEST_JWT_SECRET,
          BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
          BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
        });
        try {
          // Lists of several record types, a page size each time: statements are prepared, and later collected.
          for (let i = 1; i <= 5; i++) {
            for (const path of ['/api/billing/products', '/api/sys/businesses', '/api/sys/users']) {
              const listed = await fetch(`${service.url}${path}?page=${i}&size=${i}`, { headers: { authorization: basic } });
              assert.equal(listed.status, 200, `start ${start}: GET ${path} answered ${listed.status}`);
              await listed.arrayBuffer();
            }
          }
        } finally {
          const exit = await service.stop();
          assert.deepEqual(exit, { code: 0, signal: null }, `start ${start} ended with ${JSON.stringify(exit)}:\n${service.output()}`);
        }
        assert.doesNotMatch(service.output(), /Assertion failed|Native stack trace/, `start ${start}`);
        rmSync(database, { force: true });
      }
    });

    it('a better-sqlite3 whose native part cannot load (a build for another processor) stops start-up with one message and exit code 1', () => {
      // The same build and dependencies, but better-sqlite3's binary is one for another processor (as in a
      // node_modules copied from an arm64 machine to an x64 one): a copy of the repository made of links,
      // with better-sqlite3 copied and its binary replaced by the package's own prebuilt one for the other
      // architecture. Node keeps the links' paths (--preserve-symlinks), so the service loads the copy.
      const root = join(dir, 'other-architecture');
      mkdirSync(join(root, 'node_modules'), { recursive: true });
      symlinkSync(join(ROOT, 'dist'), join(root, 'dist'));
      symlinkSync(join(ROOT, 'package.json'), join(root, 'package.json'));
      for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
        if (entry !== 'better-sqlite3') symlinkSync(join(ROOT, 'node_modules', entry), join(root, 'node_modules', entry));
      }
      const driver = join(root, 'node_modules', 'better-sqlite3');
      cpSync(join(ROOT, 'node_modules', 'better-sqlite3'), driver, { recursive: true, filter: (source) => !source.includes('/deps/') });
      // A compiled binary, when there is one, comes before the prebuilt one: both are replaced.
      const other = readFileSync(join(driver, 'prebuilds', `${process.platform}-${process.arch === 'arm64' ? 'x64' : 'arm64'}.node`));
      for (const binary of [
        join(driver, 'build', 'Release', 'better_sqlite3.node'),
        join(driver, 'prebuilds', `${process.platform}-${process.arch}.node`),
      ]) {
        mkdirSync(join(binary, '..'), { recursive: true });
        writeFileSync(binary, other);
      }

      const result = spawnSync(
        process.execPath,
        ['--preserve-symlinks', '--preserve-symlinks-main', join(root, 'dist', 'src', 'main.js')],
        {
          cwd: root,
          env: {
            PATH: process.env.PATH ?? '',
            NODE_ENV: 'production',
            DATABASE_URL: `sqlite:${join(dir, 'other-architecture-database.sqlite')}`,
            JWT_SECRET: TEST_JWT_SECRET,
            PORT: '0',
          },
          encoding: 'utf8',
          timeout: 30_000,
        },
      );
      const output = `${result.stdout}${result.stderr}`;
      assert.equal(result.signal, null, `ended by ${result.signal} (a retry loop never exits):\n${output}`);
      assert.equal(result.status, 1, output);
      const messages = output.split('\n').filter((line) => line.includes('better-sqlite3'));
      assert.equal(messages.length, 1, `one message:\n${output}`);
      assert.match(
        messages[0],
        new RegExp(`^Cannot start: The native module better-sqlite3 does not load in Node ${process.version.replaceAll('.', '\\.')} `),
      );
      assert.match(messages[0], /`npm ci`, or `npm rebuild better-sqlite3`/);
      assert.doesNotMatch(output, /Retrying|\n\s+at /, 'no retry, no stack trace');
    });
  },
);
