import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { httpRequest } from './support/http.js';
import { ROOT, sleep, startService, waitForHealth, type Service } from './support/service.js';
import { basicAuth, freshMySqlDatabase, onMySql, TEST_JWT_SECRET } from './support/test-app.js';

// Migrations as a job (docs/operations.md, "Migrations"): instances started with MIGRATIONS_RUN=false
// apply none; they wait, not listening, until `npm run migrate` (node dist/src/migrate.js, as in the
// image) has brought the schema up to date, then start and are ready. The built service, as a process.

const ADMIN = { email: 'job@test.example', password: 'job-admin-password' };
const MIGRATIONS = readdirSync(join(ROOT, 'dist', 'src', 'database', 'migrations')).filter((file) => /^\d+-.*\.js$/.test(file)).length;

function migrateJob(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['dist/src/migrate.js'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

describe('MIGRATIONS_RUN=false and the migrate job', () => {
  let database: { url: string; drop: () => Promise<void> };
  let env: Record<string, string>;
  let service: Service | undefined;

  before(async () => {
    if (onMySql) {
      database = await freshMySqlDatabase();
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'cw-migrate-'));
      database = { url: `sqlite:${join(dir, 'db.sqlite')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
    }
    env = {
      DATABASE_URL: database.url,
      JWT_SECRET: TEST_JWT_SECRET,
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    };
  });
  after(async () => {
    await service?.stop();
    await database?.drop();
  });

  it('npm run migrate runs the job', () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    assert.equal(scripts.migrate, 'node dist/src/migrate.js');
  });

  it('an instance with MIGRATIONS_RUN=false on an empty database applies nothing and does not listen', async () => {
    service = await startService('waiting', { ...env, MIGRATIONS_RUN: 'false' }, { waitForHealth: false });
    for (let i = 0; !service.output().includes('Waiting for'); i++) {
      assert.equal(service.child.exitCode, null, service.output());
      assert.ok(i < 600, `no waiting line:\n${service.output()}`);
      await sleep(50);
    }
    assert.match(service.output(), new RegExp(`Waiting for ${MIGRATIONS} migrations to be applied`));
    await assert.rejects(fetch(`${service.url}/health/live`), 'not listening');
  });

  it('the job applies every migration and exits 0; the waiting instance then starts, ready, with its administrator', async () => {
    const job = await migrateJob(env);
    assert.equal(job.code, 0, job.output);
    assert.match(job.output, new RegExp(`Applied ${MIGRATIONS} migrations: `));
    await waitForHealth(service!);
    const ready = await httpRequest(`${service!.url}/health/ready`, { method: 'GET' });
    assert.equal(ready.status, 200, JSON.stringify(ready.body));
    assert.equal(ready.body.details.migrations.status, 'up');
    const list = await httpRequest(`${service!.url}/api/sys/businesses`, {
      method: 'GET',
      headers: { authorization: basicAuth(ADMIN.email, ADMIN.password) },
    });
    assert.equal(list.status, 200, JSON.stringify(list.body));
  });

  it('run again, the job finds nothing to do', async () => {
    const job = await migrateJob(env);
    assert.equal(job.code, 0, job.output);
    assert.match(job.output, /The schema is current: no migration to apply/);
  });

  it('a bad configuration fails the job with the variable named', async () => {
    const job = await migrateJob({ ...env, DATABASE_URL: 'postgres://nowhere/db' });
    assert.equal(job.code, 1);
    assert.match(job.output, /Configuration error: DATABASE_URL/);
  });
});
