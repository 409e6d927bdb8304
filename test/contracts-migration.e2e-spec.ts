import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DataSource, type MigrationInterface } from 'typeorm';
import { validateEnvironment } from '../src/config/configuration.js';
import { buildDataSourceOptions } from '../src/database/data-source-options.js';
import { freshMySqlDatabase, onMySql } from './support/test-app.js';

// The migration that turns customers' TariffId into contracts, on a database that holds data: the
// schema is migrated up to the migration before it, customers with and without a plan are written,
// then it runs; every plan must be a contract, nothing else changed; reverting it gives TariffId back.

const CONTRACTS_MIGRATION = 1764500000000;
const timestampOf = (migration: { name?: string; constructor: { name: string } }) =>
  Number(/\d{13}$/.exec(migration.name ?? migration.constructor.name)?.[0]);

describe("migration: customers' TariffId becomes contracts", () => {
  let dir: string;
  let database: { url: string; drop: () => Promise<void> };
  let dataSource: DataSource;
  let all: MigrationInterface[];
  const q = (name: string) => dataSource.driver.escape(name);
  const only = (migrations: MigrationInterface[]) => Object.assign(dataSource, { migrations });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cw-contracts-migration-'));
    database = onMySql ? await freshMySqlDatabase() : { url: `sqlite:${join(dir, 'db.sqlite')}`, drop: async () => undefined };
    dataSource = await new DataSource(buildDataSourceOptions(validateEnvironment({ DATABASE_URL: database.url }))).initialize();
    all = [...dataSource.migrations];
  });
  after(async () => {
    await dataSource?.destroy();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const insert = async (table: string, row: Record<string, unknown>): Promise<number> => {
    const full = { UniqueId: crypto.randomUUID(), CreatedOn: '2024-03-05 08:00:00', UpdatedOn: '2024-03-05 08:00:00', IsNew: 1, ...row };
    const names = Object.keys(full);
    await dataSource.query(
      `INSERT INTO ${q(table)} (${names.map(q).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
      Object.values(full),
    );
    const [{ id }] = await dataSource.query(`SELECT MAX(${q('Id')}) AS id FROM ${q(table)}`);
    return Number(id);
  };

  it("every stored TariffId becomes the customer's main contract, at the tariff's price, from the customer's creation; down restores it", async () => {
    only(all.filter((m) => timestampOf(m) < CONTRACTS_MIGRATION));
    await dataSource.runMigrations({ transaction: 'each' });
    const [gbp] = await dataSource.query(`SELECT ${q('Id')} AS id FROM ${q('currency')} WHERE ${q('Code')} = 'GBP'`);
    const [uk] = await dataSource.query(`SELECT ${q('Id')} AS id FROM ${q('country')} WHERE ${q('TwoDigitsCode')} = 'GB'`);
    const business = await insert('business', { Name: 'Older Works', CurrencyId: gbp.id, CountryId: uk.id });
    const resident = await insert('tariff', { BusinessId: business, Name: 'Resident', Price: '250.5000', CurrencyId: gbp.id });
    const flexi = await insert('tariff', { BusinessId: business, Name: 'Flexi', Price: '90.0000', CurrencyId: gbp.id });
    const customers = [
      await insert('coworker', {
        BusinessId: business,
        FullName: 'Ada Lovelace',
        Email: 'ada@example.com',
        TariffId: resident,
        CreatedOn: '2023-01-10 09:00:00',
      }),
      await insert('coworker', { BusinessId: business, FullName: 'Cora Contact', Email: 'cora@example.com' }),
      await insert('coworker', {
        BusinessId: business,
        FullName: 'Fred Flexi',
        Email: 'fred@example.com',
        TariffId: flexi,
        CompanyName: 'Fred Ltd',
      }),
    ];
    const before = await dataSource.query(
      `SELECT ${['Id', 'FullName', 'Email', 'CompanyName', 'BusinessId'].map(q).join(', ')} FROM ${q('coworker')} ORDER BY ${q('Id')}`,
    );

    // Up to this migration, so that undoing the last one undoes it.
    only(all.filter((m) => timestampOf(m) <= CONTRACTS_MIGRATION));
    const ran = await dataSource.runMigrations({ transaction: 'each' });
    assert.deepEqual(
      ran.map(timestampOf).filter((t) => t === CONTRACTS_MIGRATION),
      [CONTRACTS_MIGRATION],
    );

    const contracts = await dataSource.query(
      `SELECT ${['CoworkerId', 'TariffId', 'StartDate', 'CancellationDate', 'Price', 'IsPrimaryContract'].map(q).join(', ')} FROM ${q('coworkercontract')} ORDER BY ${q('CoworkerId')}`,
    );
    assert.deepEqual(
      contracts.map((c: any) => [
        Number(c.CoworkerId),
        Number(c.TariffId),
        String(c.StartDate).slice(0, 19),
        c.CancellationDate,
        Number(c.Price),
        Number(c.IsPrimaryContract),
      ]),
      [
        [customers[0], resident, '2023-01-10 09:00:00', null, 250.5, 1],
        [customers[2], flexi, '2024-03-05 08:00:00', null, 90, 1],
      ],
    );
    const columns = (await dataSource.createQueryRunner().getTable('coworker'))!.columns.map((c) => c.name);
    assert.ok(!columns.includes('TariffId'), 'the column is gone: contracts are the one place plans live');
    for (const name of ['KeyFobNumber', 'AccessCardId', 'AccessPincode', 'Salutation', 'BillingEmail'])
      assert.ok(columns.includes(name), name);
    assert.deepEqual(
      await dataSource.query(
        `SELECT ${['Id', 'FullName', 'Email', 'CompanyName', 'BusinessId'].map(q).join(', ')} FROM ${q('coworker')} ORDER BY ${q('Id')}`,
      ),
      before,
    );

    // Down: each customer's main contract is its TariffId again.
    await dataSource.undoLastMigration({ transaction: 'each' });
    const restored = await dataSource.query(
      `SELECT ${q('Id')} AS id, ${q('TariffId')} AS tariff FROM ${q('coworker')} ORDER BY ${q('Id')}`,
    );
    assert.deepEqual(
      restored.map((r: any) => [Number(r.id), r.tariff === null ? null : Number(r.tariff)]),
      [
        [customers[0], resident],
        [customers[1], null],
        [customers[2], flexi],
      ],
    );
  });
});
