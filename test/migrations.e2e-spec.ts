import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DataSource } from 'typeorm';
import { validateEnvironment } from '../src/config/configuration.js';
import { buildDataSourceOptions } from '../src/database/data-source-options.js';
import { ServiceDataSource } from '../src/database/service-data-source.js';
import { basicAuth, freshMySqlDatabase, onMySql, TEST_JWT_SECRET } from './support/test-app.js';
import { ROOT, startService } from './support/service.js';

// The migrations through the TypeORM CLI (what npm run migration:* runs, on ormconfig.ts): an empty
// database to the current schema, back down to the first migration, and forward again by the
// service's own start-up with the data kept; then no difference between entities and schema.

const ADMIN = { email: 'migrations@test.example', password: 'migrations-admin-password' };

describe('migrations', () => {
  let dir: string;
  let database: { url: string; drop: () => Promise<void> };

  const cli = (...args: string[]) => {
    const result = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typeorm', 'cli.js'), '-d', 'dist/ormconfig.js', ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: database.url },
      encoding: 'utf8',
      timeout: 60_000,
    });
    return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
  };
  const withDataSource = async <T>(work: (dataSource: DataSource) => Promise<T>): Promise<T> => {
    const dataSource = await new ServiceDataSource(
      buildDataSourceOptions(validateEnvironment({ DATABASE_URL: database.url })),
    ).initialize();
    try {
      return await work(dataSource);
    } finally {
      await dataSource.destroy();
    }
  };
  const applied = (dataSource: DataSource) =>
    dataSource.query<Array<{ name: string }>>(
      `SELECT ${dataSource.driver.escape('name')} AS name FROM ${dataSource.driver.escape('migrations')} ORDER BY ${dataSource.driver.escape('timestamp')}`,
    );

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cw-migrations-'));
    database = onMySql ? await freshMySqlDatabase() : { url: `sqlite:${join(dir, 'db.sqlite')}`, drop: async () => undefined };
  });
  after(async () => {
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  let all: string[];

  it('migration:run brings an empty database to the current schema', async () => {
    const run = cli('migration:run');
    assert.equal(run.status, 0, run.output);
    all = (await withDataSource(applied)).map((m) => m.name);
    const known = await withDataSource(async (dataSource) => dataSource.migrations.map((m) => m.name ?? m.constructor.name));
    const timestamp = (name: string) => Number(/\d{13}$/.exec(name)?.[0]);
    assert.deepEqual(
      all,
      [...known].sort((a, b) => timestamp(a) - timestamp(b)),
    );
    assert.ok(all.length >= 2);
  });

  it('migration:revert takes it back down to the first migration', async () => {
    for (let i = 1; i < all.length; i++) {
      const revert = cli('migration:revert');
      assert.equal(revert.status, 0, revert.output);
    }
    assert.deepEqual(
      (await withDataSource(applied)).map((m) => m.name),
      all.slice(0, 1),
    );
  });

  it('an older database moves forward when the service starts, its rows intact', async () => {
    const currency = await withDataSource(async (dataSource) => {
      const q = (name: string) => dataSource.driver.escape(name);
      const [eur] = await dataSource.query(`SELECT ${q('Id')} AS id FROM ${q('currency')} WHERE ${q('Code')} = 'EUR'`);
      await dataSource.query(
        `INSERT INTO ${q('business')} (${['UniqueId', 'CreatedOn', 'UpdatedOn', 'IsNew', 'Name', 'CurrencyId', 'CountryId'].map(q).join(', ')}) VALUES (?, ?, ?, 1, ?, ?, 1)`,
        ['5b0c1f3e-8a8e-4d5e-9a55-0a8e8e2b9a11', '2025-01-15 10:30:00', '2025-01-15 10:30:00', 'Older Works', eur.id],
      );
      return Number(eur.id);
    });
    const service = await startService('migrations', {
      DATABASE_URL: database.url,
      JWT_SECRET: TEST_JWT_SECRET,
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'info',
    });
    try {
      const res = await fetch(`${service.url}/api/sys/businesses`, { headers: { authorization: basicAuth(ADMIN.email, ADMIN.password) } });
      const body: any = await res.json();
      assert.equal(res.status, 200, JSON.stringify(body));
      assert.equal(body.TotalItems, 1);
      assert.equal(body.Records[0].Name, 'Older Works');
      assert.equal(body.Records[0].CurrencyId, currency);
      assert.equal(body.Records[0].CreatedOn, '2025-01-15T10:30:00Z');
      // The start-up says, in one line, that it brought the schema forward.
      assert.match(service.output(), new RegExp(`Applied ${all.length - 1} migrations: `));
    } finally {
      assert.equal((await service.stop()).code, 0);
    }
    assert.deepEqual(
      (await withDataSource(applied)).map((m) => m.name),
      all,
    );
  });

  it(
    'migration:generate finds no difference between the entities and the migrated schema',
    { skip: !onMySql && 'checked on MySQL/MariaDB, where production runs' },
    async () => {
      const pending = await withDataSource(async (dataSource) =>
        (await dataSource.driver.createSchemaBuilder().log()).upQueries.map((q) => q.query),
      );
      assert.deepEqual(pending, []);
      const check = cli('migration:generate', join(dir, 'Drift'), '--check');
      assert.equal(check.status, 0, check.output);
      assert.match(check.output, /No changes in database schema were found/);
    },
  );
});
