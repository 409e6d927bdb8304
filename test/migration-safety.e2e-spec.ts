import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { DataSource } from 'typeorm';
import { validateEnvironment } from '../src/config/configuration.js';
import { runMigrations } from '../src/database/migration-runner.js';
import { buildDataSourceOptions } from '../src/database/data-source-options.js';
import { MigrationLock } from '../src/database/migration-lock.js';
import { readSchemaNames } from '../src/database/schema-repair.js';
import { sleep, startService, waitForHealth, type Service } from './support/service.js';
import { basicAuth, freshMySqlDatabase, onMySql, TEST_JWT_SECRET } from './support/test-app.js';

// The schema at start-up, run by the built service as production starts it: tables in utf8mb4 whatever
// the database's default, a failed migration that stops start-up and is repaired by the next start, and
// the migration lock between instances starting together.

const ADMIN = { email: 'migration-safety@test.example', password: 'migration-safety-password' };
const admin = basicAuth(ADMIN.email, ADMIN.password);
/** The last migration of the base schema: two tables, so a failure can come after the first. */
const SALES = 'Sales1764100000000';

describe('the schema at start-up', () => {
  let dir: string;
  let database: { url: string; drop: () => Promise<void> };
  const services: Service[] = [];

  const fresh = async (options: { characterSet?: string } = {}) => {
    await database?.drop();
    database = onMySql
      ? await freshMySqlDatabase(options)
      : { url: `sqlite:${join(dir, `db-${Date.now()}.sqlite`)}`, drop: async () => undefined };
  };
  const start = async (options: { waitForHealth?: boolean; bootstrapAdmin?: boolean } = {}) => {
    const bootstrap: Record<string, string> =
      options.bootstrapAdmin === false ? {} : { BOOTSTRAP_ADMIN_EMAIL: ADMIN.email, BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password };
    const service = await startService(
      'migrations',
      { DATABASE_URL: database.url, JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'info', ...bootstrap },
      { waitForHealth: false },
    );
    // Stopped after the test even when it fails before this one is healthy.
    services.push(service);
    if (options.waitForHealth !== false) await waitForHealth(service);
    return service;
  };
  const withDataSource = async <T>(work: (dataSource: DataSource, q: (name: string) => string) => Promise<T>): Promise<T> => {
    const dataSource = await new DataSource(buildDataSourceOptions(validateEnvironment({ DATABASE_URL: database.url }))).initialize();
    try {
      return await work(dataSource, (name) => dataSource.driver.escape(name));
    } finally {
      await dataSource.destroy();
    }
  };
  const applied = () =>
    withDataSource(async (dataSource, q) =>
      (await dataSource.query<Array<{ name: string }>>(`SELECT ${q('name')} AS name FROM ${q('migrations')}`)).map((row) => row.name),
    );
  const tableExists = (table: string) =>
    withDataSource(async (dataSource) => {
      const runner = dataSource.createQueryRunner();
      try {
        return await runner.hasTable(table);
      } finally {
        await runner.release();
      }
    });

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'cw-migration-safety-'));
  });
  afterEach(async () => {
    await Promise.all(services.splice(0).map((service) => service.stop()));
  });
  after(async () => {
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'a database whose default character set is latin1 gets utf8mb4 tables: seeded names and 4-byte emoji are stored as sent',
    { skip: !onMySql && 'a MySQL database setting' },
    async () => {
      await fresh({ characterSet: 'latin1' });
      const service = await start();
      const get = async (path: string) => (await fetch(service.url + path, { headers: { authorization: admin } })).json() as Promise<any>;
      const curacao = await get('/api/sys/countries?Country_TwoDigitsCode=CW');
      assert.equal(curacao.Records[0].Name, 'Curaçao');
      const euro = await get('/api/sys/currencies?Currency_Code=EUR');
      assert.equal(euro.TotalItems, 1);

      const name = 'Café ☕ Łódź 🏢🚀 北京';
      const created = await fetch(`${service.url}/api/sys/businesses`, {
        method: 'POST',
        headers: { authorization: admin, 'content-type': 'application/json' },
        body: JSON.stringify({ Name: name, CurrencyId: euro.Records[0].Id, CountryId: curacao.Records[0].Id }),
      });
      const body: any = await created.json();
      assert.equal(created.status, 200, JSON.stringify(body));
      assert.equal((await get(`/api/sys/businesses/${body.Value.Id}`)).Name, name);

      const tables = await withDataSource((dataSource) =>
        dataSource.query<Array<{ name: string; collation: string }>>(
          'SELECT TABLE_NAME AS name, TABLE_COLLATION AS collation FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()',
        ),
      );
      assert.ok(tables.length > 10);
      assert.deepEqual(
        tables.filter((table) => !table.collation.startsWith('utf8mb4_')),
        [],
      );
    },
  );

  it('a failed migration stops start-up once, naming the migration and the error; the next start resumes', async () => {
    await fresh();
    // A table in the way of the migration's second table: the first is made, then the migration fails.
    await withDataSource((dataSource, q) =>
      dataSource.query(`CREATE TABLE ${q('coworkerbookingcredit')} (${q('Id')} int NOT NULL PRIMARY KEY)`),
    );
    const failing = await start({ waitForHealth: false });
    const exit = await Promise.race([failing.exited, new Promise((resolve) => setTimeout(resolve, 30_000, 'still running'))]);
    assert.deepEqual(exit, { code: 1, signal: null }, failing.output());
    assert.match(failing.output(), new RegExp(`Migration ${SALES} failed: .*coworkerbookingcredit.*already exists`, 'i'));
    assert.doesNotMatch(failing.output(), /Retrying/);
    // Nothing of the failed migration is left, and the ones before it stay applied.
    assert.equal(await tableExists('coworkerproduct'), false);
    assert.equal((await applied()).includes(SALES), false);
    assert.ok((await applied()).length >= 6);

    await withDataSource((dataSource, q) => dataSource.query(`DROP TABLE ${q('coworkerbookingcredit')}`));
    await start();
    assert.equal((await applied()).filter((name) => name === SALES).length, 1);
    assert.equal(await tableExists('coworkerproduct'), true);
  });

  it(
    'a migration that an instance left half done when it died is undone and run again by the next start',
    { skip: !onMySql && 'SQLite rolls a migration back whole' },
    async () => {
      await fresh();
      await withDataSource(async (dataSource, q) => {
        await runMigrations(dataSource);
        // Back to just before the Sales migration (the later ones undone first).
        while ((await dataSource.query(`SELECT 1 AS x FROM ${q('migrations')} WHERE ${q('name')} = ?`, [SALES])).length) {
          await dataSource.undoLastMigration({ transaction: 'each' });
        }
        // The dead instance had recorded the schema, made one table and a column on an older table.
        const lock = new MigrationLock(dataSource);
        await lock.acquire();
        await lock.recordProgress({ migration: SALES, schemaBefore: await readSchemaNames(dataSource) });
        await dataSource.query(`CREATE TABLE ${q('coworkerproduct')} (${q('Id')} int NOT NULL PRIMARY KEY)`);
        await dataSource.query(
          `ALTER TABLE ${q('business')} ADD COLUMN ${q('Leftover')} int NULL, ADD INDEX ${q('IX_business_Leftover')} (${q('Leftover')})`,
        );
        // It died holding the lock, which has expired since.
        await dataSource.query(`UPDATE ${q('migration_lock')} SET ${q('ExpiresAt')} = ?`, [Date.now() - 1000]);
        await lock.release();
      });
      const service = await start();
      assert.match(service.output(), new RegExp(`Migration ${SALES} did not finish`));
      await withDataSource(async (dataSource) => {
        const columns = async (table: string) =>
          (
            await dataSource.query<Array<{ c: string }>>(
              'SELECT COLUMN_NAME AS c FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?',
              [table],
            )
          ).map((row) => row.c);
        assert.ok((await columns('coworkerproduct')).includes('SaleDate'), 'made by the migration, not the leftover');
        assert.equal((await columns('business')).includes('Leftover'), false);
        const [record] = await dataSource.query('SELECT `Owner`, `Migration` FROM `migration_lock`');
        assert.deepEqual({ ...record }, { Owner: null, Migration: null });
      });
      assert.equal((await applied()).filter((name) => name === SALES).length, 1);
    },
  );

  it('an instance waits while another holds the migration lock, and takes it over once the holder stops renewing it', async () => {
    await fresh();
    const expiresIn = 3000;
    const service = await withDataSource(async (dataSource, q) => {
      const holder = new MigrationLock(dataSource);
      await holder.acquire();
      const waiting = await start({ waitForHealth: false });
      for (const started = Date.now(); !/Another instance is running the migrations/.test(waiting.output()); await sleep(100)) {
        assert.ok(Date.now() - started < 60_000, `never waited for the lock:\n${waiting.output()}`);
      }
      assert.equal(
        await fetch(`${waiting.url}/health`).then(
          (res) => res.status,
          () => 'not listening',
        ),
        'not listening',
      );
      // The holder crashes: its claim is no longer renewed and runs out.
      await dataSource.query(`UPDATE ${q('migration_lock')} SET ${q('Owner')} = 'crashed-instance', ${q('ExpiresAt')} = ?`, [
        Date.now() + expiresIn,
      ]);
      await holder.release();
      return waiting;
    });
    const crashed = Date.now();
    await waitForHealth(service);
    assert.ok(
      Date.now() - crashed >= expiresIn - 500,
      `healthy ${Date.now() - crashed} ms after the holder crashed, before its claim expired`,
    );
    assert.ok((await applied()).includes(SALES));
  });

  it('instances starting together migrate once', async () => {
    await fresh();
    // Only the migrations race here (two processes creating the first user on one SQLite file is
    // another matter).
    await Promise.all([start({ bootstrapAdmin: false }), start({ bootstrapAdmin: false })]);
    const names = await applied();
    assert.deepEqual(names, [...new Set(names)]);
    assert.ok(names.includes(SALES));
  });
});
