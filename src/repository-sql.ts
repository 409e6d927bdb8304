import type { DataSource, EntityManager } from 'typeorm';
import { BillingRunsRepository } from './billing/billing-runs/billing-runs.repository.js';
import { DueSourcesRepository } from './billing/billing-runs/due-sources.repository.js';
import { ChargesRepository } from './billing/charges/charges.repository.js';
import { ContractProductsRepository } from './billing/contract-products/contract-products.repository.js';
import { CoworkerProduct } from './billing/coworker-products/coworker-product.entity.js';
import { CoworkerProductsRepository } from './billing/coworker-products/coworker-products.repository.js';
import { CoworkerTimePassesRepository } from './billing/coworker-time-passes/coworker-time-passes.repository.js';
import { Coworker } from './customers/coworker.entity.js';
import { DueItemsRepository } from './billing/due-items/due-items.repository.js';
import { ProductsRepository } from './billing/products/products.repository.js';
import { Product } from './billing/products/product.entity.js';
import { InvoiceReleaseRepository } from './billing/settlement/invoice-release.repository.js';
import type { Database } from './persistence/database.js';
import { RecordLinksRepository } from './records/record-links.repository.js';
import { MigrationLockRepository } from './database/migration-lock.repository.js';
import { SchemaRepository } from './database/schema.repository.js';
import { RecordingDatabase } from './guarantee-sql.js';
import { TaxRatesRepository } from './kernel/tax-rates/tax-rates.repository.js';
import { BookingProductsRepository } from './spaces/booking-products/booking-products.repository.js';
import { BookingsRepository } from './spaces/bookings/bookings.repository.js';
import { CoworkerDeliveriesRepository } from './spaces/coworker-deliveries/coworker-deliveries.repository.js';
import { ResourcesRepository } from './spaces/resources/resources.repository.js';

/** One named repository method and how to call it with placeholder arguments. */
interface NamedStatement {
  /** `Repository.method` */
  name: string;
  run(db: RecordingDatabase, manager: EntityManager, dataSource: DataSource): Promise<unknown>;
}

const at = new Date(0);
const list = { table: 'product_tariff', on: 'ProductId', column: 'TariffId' };

/**
 * The statements of the repositories that took over the SQL domain files used to run (docs/architecture.md,
 * "The database"), by method, so that a change of one shows in docs/sql/<dialect>/repositories.sql. The
 * statements that carry a guarantee are in guarantees.sql, those of the record machinery in <Type>.sql.
 */
const STATEMENTS: NamedStatement[] = [
  { name: 'BillingRunsRepository.dueBusinesses', run: (db) => new BillingRunsRepository(db).dueBusinesses(at) },
  { name: 'BillingRunsRepository.dueCustomersPage', run: (db) => new BillingRunsRepository(db).dueCustomersPage(1, at, 0, 200) },
  { name: 'BillingRunsRepository.businessOfCustomer', run: (db, manager) => new BillingRunsRepository(db).businessOfCustomer(1, manager) },
  { name: 'BillingRunsRepository.taxRates', run: (db, manager) => new BillingRunsRepository(db).taxRates([1, 2], manager) },
  { name: 'BillingRunsRepository.inTeamInvoices', run: (db, manager) => new BillingRunsRepository(db).inTeamInvoices([1, 2], manager) },
  { name: 'BillingRunsRepository.payingMemberOf', run: (db, manager) => new BillingRunsRepository(db).payingMemberOf(1, manager) },
  { name: 'BillingRunsRepository.membersPaidBy', run: (db, manager) => new BillingRunsRepository(db).membersPaidBy(1, manager) },
  { name: 'BillingRunsRepository.universalCredits', run: (db, manager) => new BillingRunsRepository(db).universalCredits(1, 1, manager) },
  { name: 'DueSourcesRepository.contractsDue', run: (db, manager) => new DueSourcesRepository(db).contractsDue([1, 2], at, manager) },
  { name: 'DueSourcesRepository.contractProducts', run: (db, manager) => new DueSourcesRepository(db).contractProducts([1, 2], manager) },
  {
    name: 'DueSourcesRepository.unbilledOneOffSales',
    run: (db, manager) => new DueSourcesRepository(db).unbilledOneOffSales([1, 2], at, manager),
  },
  { name: 'DueSourcesRepository.recurringSales', run: (db, manager) => new DueSourcesRepository(db).recurringSales([1, 2], manager) },
  { name: 'DueSourcesRepository.mainContract', run: (db, manager) => new DueSourcesRepository(db).mainContract(1, at, at, manager) },
  {
    name: 'DueItemsRepository.hasBilledLines',
    run: (db, manager) => new DueItemsRepository(db).hasBilledLines('CoworkerProductUniqueId', 'u', manager),
  },
  { name: 'DueItemsRepository.holdUnbilled', run: (db, manager) => new DueItemsRepository(db).holdUnbilled(CoworkerProduct, 1, manager) },
  { name: 'DueItemsRepository.flaggedOn', run: (db, manager) => new DueItemsRepository(db).flaggedOn(CoworkerProduct, 1, manager) },
  {
    name: 'DueItemsRepository.updateFlagged (a claim)',
    run: (db, manager) =>
      new DueItemsRepository(db).updateFlagged(CoworkerProduct, 1, { Invoiced: 1, CoworkerInvoiceId: 1 }, 1, undefined, manager),
  },
  {
    name: 'DueItemsRepository.updateFlagged (a release)',
    run: (db, manager) =>
      new DueItemsRepository(db).updateFlagged(CoworkerProduct, 1, { Invoiced: 0, CoworkerInvoiceId: null }, null, undefined, manager),
  },
  {
    name: 'InvoiceReleaseRepository.billedBy',
    run: (db, manager) => new InvoiceReleaseRepository(db).billedBy(1, 'CoworkerProductUniqueId', manager),
  },
  {
    name: 'InvoiceReleaseRepository.sourceRecord',
    run: (db, manager) => new InvoiceReleaseRepository(db).sourceRecord(CoworkerProduct, 'u', manager),
  },
  {
    name: 'InvoiceReleaseRepository.otherBillings',
    run: (db, manager) => new InvoiceReleaseRepository(db).otherBillings('CoworkerProductUniqueId', 'u', 1, manager),
  },
  {
    name: 'InvoiceReleaseRepository.markReleased',
    run: (db, manager) => new InvoiceReleaseRepository(db).markReleased(CoworkerProduct, 1, { Invoiced: 0 }, undefined, manager),
  },
  { name: 'ChargesRepository.dueForBilling', run: (db, manager) => new ChargesRepository(db).dueForBilling([1, 2], at, manager) },
  {
    name: 'CoworkerTimePassesRepository.dueForBilling',
    run: (db, manager) => new CoworkerTimePassesRepository(db).dueForBilling([1, 2], at, manager),
  },
  {
    name: 'CoworkerTimePassesRepository.checkinUsing',
    run: (db, manager) => new CoworkerTimePassesRepository(db).checkinUsing('u', manager),
  },
  { name: 'BookingsRepository.dueForBilling', run: (db, manager) => new BookingsRepository(db).dueForBilling([1, 2], at, manager) },
  {
    name: 'ContractProductsRepository.invoicedPeriod',
    run: (db, manager) => new ContractProductsRepository(db).invoicedPeriod(1, manager),
  },
  { name: 'ContractProductsRepository.contractOf', run: (db, manager) => new ContractProductsRepository(db).contractOf(1, manager) },
  { name: 'ContractProductsRepository.productOf', run: (db, manager) => new ContractProductsRepository(db).productOf(1, manager) },
  {
    name: 'CoworkerProductsRepository.invoicedPeriod',
    run: (db, manager) => new CoworkerProductsRepository(db).invoicedPeriod(1, manager),
  },
  { name: 'ProductsRepository.claimLowStockAlert', run: (db, manager) => new ProductsRepository(db).claimLowStockAlert(1, 1, at, manager) },
  { name: 'ProductsRepository.rearmLowStockAlert', run: (db, manager) => new ProductsRepository(db).rearmLowStockAlert(1, manager) },
  {
    name: 'CoworkerDeliveriesRepository.collect',
    run: (db, manager) => new CoworkerDeliveriesRepository(db).collect(1, at, null, manager),
  },
  {
    name: 'TaxRatesRepository.isNamedIn',
    run: (db, manager) => new TaxRatesRepository(db).isNamedIn(Product, ['TaxRateId', 'ReducedTaxRateId', 'ExemptTaxRateId'], 1, manager),
  },
  { name: 'ResourcesRepository.currencyOfBusiness', run: (db, manager) => new ResourcesRepository(db).currencyOfBusiness(1, manager) },
  { name: 'ResourcesRepository.hasBookings', run: (db, manager) => new ResourcesRepository(db).hasBookings(1, manager) },
  {
    name: 'BookingProductsRepository.customerOfBooking',
    run: (db, manager) => new BookingProductsRepository(db).customerOfBooking(1, manager),
  },
  { name: 'RecordLinksRepository.listedIds', run: (db, manager) => new RecordLinksRepository(db).listedIds(list, 1, manager) },
  { name: 'RecordLinksRepository.unlist', run: (db, manager) => new RecordLinksRepository(db).unlist(list, 1, [2, 3], manager) },
  { name: 'RecordLinksRepository.list', run: (db, manager) => new RecordLinksRepository(db).list(list, 1, [2, 3], manager) },
  {
    name: 'RecordLinksRepository.names (an id)',
    run: (db, manager) => new RecordLinksRepository(db).names({ table: 'product', column: 'TaxRateId', json: false }, 1, manager),
  },
  {
    name: 'RecordLinksRepository.names (a JSON id list)',
    run: (db, manager) =>
      new RecordLinksRepository(db).names({ table: 'coworkerbookingcredit', column: 'ElegibleProducts', json: true }, 1, manager),
  },
  { name: 'RecordLinksRepository.lockRow (MySQL)', run: (db, manager) => new RecordLinksRepository(db).lockRow(Product, 1, manager) },
  {
    name: 'RecordLinksRepository.businessesOf (a column)',
    run: (db, manager) => new RecordLinksRepository(db).businessesOf(Product, { column: 'BusinessId' }, [1, 2], manager),
  },
  {
    name: 'RecordLinksRepository.businessesOf (through a parent)',
    run: (db, manager) =>
      new RecordLinksRepository(db).businessesOf(CoworkerProduct, { via: () => Coworker, on: 'CoworkerId' }, [1], manager),
  },
  {
    name: 'MigrationLockRepository.ensureTable',
    run: (_db, _manager, dataSource) => new MigrationLockRepository(dataSource, 'migrations').ensureTable(),
  },
  {
    name: 'MigrationLockRepository.ensureRow',
    run: (_db, _manager, dataSource) => new MigrationLockRepository(dataSource, 'migrations').ensureRow(),
  },
  {
    name: 'MigrationLockRepository.claim',
    run: (_db, _manager, dataSource) => new MigrationLockRepository(dataSource, 'migrations').claim('owner', 0, 0),
  },
  {
    name: 'MigrationLockRepository.read',
    run: (_db, _manager, dataSource) => new MigrationLockRepository(dataSource, 'migrations').read(),
  },
  {
    name: 'MigrationLockRepository.renew',
    run: (_db, _manager, dataSource) => new MigrationLockRepository(dataSource, 'migrations').renew('owner', 0),
  },
  {
    name: 'MigrationLockRepository.owner',
    run: (_db, _manager, dataSource) => new MigrationLockRepository(dataSource, 'migrations').owner(),
  },
  {
    name: 'MigrationLockRepository.recordProgress',
    run: (_db, _manager, dataSource) => new MigrationLockRepository(dataSource, 'migrations').recordProgress('owner', null, null),
  },
  {
    name: 'MigrationLockRepository.release',
    run: (_db, _manager, dataSource) => new MigrationLockRepository(dataSource, 'migrations').release('owner'),
  },
  {
    name: 'SchemaRepository.ensureMigrationsTable (MySQL)',
    run: (_db, _manager, dataSource) => new SchemaRepository(dataSource).ensureMigrationsTable('ENGINE=InnoDB'),
  },
  { name: 'SchemaRepository.appliedMigrations', run: (_db, _manager, dataSource) => new SchemaRepository(dataSource).appliedMigrations() },
  { name: 'SchemaRepository.isApplied', run: (_db, _manager, dataSource) => new SchemaRepository(dataSource).isApplied('Migration1') },
  { name: 'SchemaRepository.tables (MySQL)', run: (_db, _manager, dataSource) => new SchemaRepository(dataSource).tables() },
  { name: 'SchemaRepository.columns (MySQL)', run: (_db, _manager, dataSource) => new SchemaRepository(dataSource).columns() },
  { name: 'SchemaRepository.indexes (MySQL)', run: (_db, _manager, dataSource) => new SchemaRepository(dataSource).indexes() },
  { name: 'SchemaRepository.foreignKeys (MySQL)', run: (_db, _manager, dataSource) => new SchemaRepository(dataSource).foreignKeys() },
  {
    name: 'SchemaRepository.withoutForeignKeyChecks (MySQL)',
    run: (_db, _manager, dataSource) => new SchemaRepository(dataSource).withoutForeignKeyChecks(['DROP TABLE IF EXISTS `t`']),
  },
  {
    name: 'SchemaRepository.insertRows',
    run: (_db, _manager, dataSource) =>
      SchemaRepository.insertRows(
        dataSource.createQueryRunner(),
        'currency',
        ['Code', 'Name'],
        [
          ['EUR', 'Euro'],
          ['USD', 'US Dollar'],
        ],
      ),
  },
];

/**
 * The data source of `db` with its statements recorded, not run: `query` and a query runner's `query`
 * go to `sent`, answered with no rows.
 */
function recordingDataSource(db: RecordingDatabase): DataSource {
  const query = (sql: string) => {
    db.sent.push(sql);
    return Promise.resolve([]);
  };
  const runner = { query, release: () => Promise.resolve(), connection: db.dataSource };
  return new Proxy(db.dataSource, {
    get: (target, property, receiver) =>
      property === 'query' ? query : property === 'createQueryRunner' ? () => runner : Reflect.get(target, property, receiver),
  });
}

/** The repositories' statements of one dialect's `db`, as reviewable text (docs/sql/<dialect>/repositories.sql). */
export async function repositorySql(offline: Database): Promise<string> {
  const db = new RecordingDatabase(offline.dataSource);
  const dataSource = recordingDataSource(db);
  const lines = [
    '-- The statements of the repositories that domain code calls by name: generated by `npm run sql:snapshots` from the',
    '-- methods that run them (src/repository-sql.ts); do not edit.',
  ];
  for (const statement of STATEMENTS) {
    db.sent.length = 0;
    await statement.run(db, db.manager, dataSource);
    lines.push('', `-- ${statement.name}`, ...(db.sent.length ? db.sent.map((sql) => `${sql};`) : ['-- (nothing on this database)']));
  }
  return `${lines.join('\n')}\n`;
}
