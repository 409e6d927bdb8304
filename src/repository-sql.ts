import type { DataSource } from 'typeorm';
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
import { UsersRepository } from './customers/users/users.repository.js';
import { TeamsRepository } from './customers/teams/teams.repository.js';
import { EventWaitingAttendeesRepository } from './content/event-waiting-attendees/event-waiting-attendees.repository.js';
import { CoworkerInvoicesRepository } from './billing/coworker-invoices/coworker-invoices.repository.js';
import type { Tx } from './persistence/tx.js';

/** One named repository method and how to call it with placeholder arguments. */
interface NamedStatement {
  /** `Repository.method` */
  name: string;
  run(db: RecordingDatabase, tx: Tx, dataSource: DataSource): Promise<unknown>;
}

const at = new Date(0);
const list = { table: 'product_tariff', on: 'ProductId', column: 'TariffId' };

/**
 * The statements of the repositories that took over the SQL domain files used to run (docs/architecture.md,
 * "The database"), by method, so that a change of one shows in docs/sql/<dialect>/repositories.sql. The
 * statements that carry a guarantee are in guarantees.sql, those of the record machinery in <Type>.sql.
 */
export const STATEMENTS: NamedStatement[] = [
  { name: 'BillingRunsRepository.dueBusinesses', run: (db) => new BillingRunsRepository(db).dueBusinesses(at) },
  { name: 'BillingRunsRepository.dueCustomersPage', run: (db) => new BillingRunsRepository(db).dueCustomersPage(1, at, 0, 200) },
  { name: 'BillingRunsRepository.businessOfCustomer', run: (db, tx) => new BillingRunsRepository(db).businessOfCustomer(1, tx) },
  { name: 'BillingRunsRepository.taxRates', run: (db, tx) => new BillingRunsRepository(db).taxRates([1, 2], tx) },
  { name: 'BillingRunsRepository.inTeamInvoices', run: (db, tx) => new BillingRunsRepository(db).inTeamInvoices([1, 2], tx) },
  { name: 'BillingRunsRepository.payingMemberOf', run: (db, tx) => new BillingRunsRepository(db).payingMemberOf(1, tx) },
  { name: 'BillingRunsRepository.membersPaidBy', run: (db, tx) => new BillingRunsRepository(db).membersPaidBy(1, tx) },
  { name: 'BillingRunsRepository.universalCredits', run: (db, tx) => new BillingRunsRepository(db).universalCredits(1, 1, tx) },
  { name: 'DueSourcesRepository.contractsDue', run: (db, tx) => new DueSourcesRepository(db).contractsDue([1, 2], at, tx) },
  { name: 'DueSourcesRepository.contractProducts', run: (db, tx) => new DueSourcesRepository(db).contractProducts([1, 2], tx) },
  {
    name: 'DueSourcesRepository.unbilledOneOffSales',
    run: (db, tx) => new DueSourcesRepository(db).unbilledOneOffSales([1, 2], at, tx),
  },
  { name: 'DueSourcesRepository.recurringSales', run: (db, tx) => new DueSourcesRepository(db).recurringSales([1, 2], tx) },
  { name: 'DueSourcesRepository.mainContract', run: (db, tx) => new DueSourcesRepository(db).mainContract(1, at, at, tx) },
  {
    name: 'DueItemsRepository.hasBilledLines',
    run: (db, tx) => new DueItemsRepository(db).hasBilledLines('CoworkerProductUniqueId', 'u', tx),
  },
  { name: 'DueItemsRepository.holdUnbilled', run: (db, tx) => new DueItemsRepository(db).holdUnbilled(CoworkerProduct, 1, tx) },
  { name: 'DueItemsRepository.flaggedOn', run: (db, tx) => new DueItemsRepository(db).flaggedOn(CoworkerProduct, 1, tx) },
  {
    name: 'DueItemsRepository.updateFlagged (a claim)',
    run: (db, tx) => new DueItemsRepository(db).updateFlagged(CoworkerProduct, 1, { Invoiced: 1, CoworkerInvoiceId: 1 }, 1, undefined, tx),
  },
  {
    name: 'DueItemsRepository.updateFlagged (a release)',
    run: (db, tx) =>
      new DueItemsRepository(db).updateFlagged(CoworkerProduct, 1, { Invoiced: 0, CoworkerInvoiceId: null }, null, undefined, tx),
  },
  {
    name: 'InvoiceReleaseRepository.billedBy',
    run: (db, tx) => new InvoiceReleaseRepository(db).billedBy(1, 'CoworkerProductUniqueId', tx),
  },
  {
    name: 'InvoiceReleaseRepository.sourceRecord',
    run: (db, tx) => new InvoiceReleaseRepository(db).sourceRecord(CoworkerProduct, 'u', tx),
  },
  {
    name: 'InvoiceReleaseRepository.otherBillings',
    run: (db, tx) => new InvoiceReleaseRepository(db).otherBillings('CoworkerProductUniqueId', 'u', 1, tx),
  },
  {
    name: 'InvoiceReleaseRepository.markReleased',
    run: (db, tx) => new InvoiceReleaseRepository(db).markReleased(CoworkerProduct, 1, { Invoiced: 0 }, undefined, tx),
  },
  { name: 'ChargesRepository.dueForBilling', run: (db, tx) => new ChargesRepository(db).dueForBilling([1, 2], at, tx) },
  {
    name: 'CoworkerTimePassesRepository.dueForBilling',
    run: (db, tx) => new CoworkerTimePassesRepository(db).dueForBilling([1, 2], at, tx),
  },
  {
    name: 'CoworkerTimePassesRepository.checkinUsing',
    run: (db, tx) => new CoworkerTimePassesRepository(db).checkinUsing('u', tx),
  },
  { name: 'BookingsRepository.dueForBilling', run: (db, tx) => new BookingsRepository(db).dueForBilling([1, 2], at, tx) },
  {
    name: 'ContractProductsRepository.invoicedPeriod',
    run: (db, tx) => new ContractProductsRepository(db).invoicedPeriod(1, tx),
  },
  { name: 'ContractProductsRepository.contractOf', run: (db, tx) => new ContractProductsRepository(db).contractOf(1, tx) },
  { name: 'ContractProductsRepository.productOf', run: (db, tx) => new ContractProductsRepository(db).productOf(1, tx) },
  {
    name: 'CoworkerProductsRepository.invoicedPeriod',
    run: (db, tx) => new CoworkerProductsRepository(db).invoicedPeriod(1, tx),
  },
  { name: 'ProductsRepository.claimLowStockAlert', run: (db, tx) => new ProductsRepository(db).claimLowStockAlert(1, 1, at, tx) },
  { name: 'ProductsRepository.rearmLowStockAlert', run: (db, tx) => new ProductsRepository(db).rearmLowStockAlert(1, tx) },
  {
    name: 'CoworkerDeliveriesRepository.collect',
    run: (db, tx) => new CoworkerDeliveriesRepository(db).collect(1, at, null, tx),
  },
  {
    name: 'TaxRatesRepository.isNamedIn',
    run: (db, tx) => new TaxRatesRepository(db).isNamedIn(Product, ['TaxRateId', 'ReducedTaxRateId', 'ExemptTaxRateId'], 1, tx),
  },
  { name: 'ResourcesRepository.currencyOfBusiness', run: (db, tx) => new ResourcesRepository(db).currencyOfBusiness(1, tx) },
  { name: 'ResourcesRepository.hasBookings', run: (db, tx) => new ResourcesRepository(db).hasBookings(1, tx) },
  { name: 'UsersRepository.emailTaken', run: (db, tx) => new UsersRepository(db).emailTaken('a@example.com', 1, tx) },
  { name: 'UsersRepository.hasTwoFactorSecret', run: (db, tx) => new UsersRepository(db).hasTwoFactorSecret(1, tx) },
  { name: 'TeamsRepository.customersOfBusiness', run: (db, tx) => new TeamsRepository(db).customersOfBusiness(1, [2, 3], tx) },
  {
    name: 'EventWaitingAttendeesRepository.businessOfEvent',
    run: (db, tx) => new EventWaitingAttendeesRepository(db).businessOfEvent(1, tx),
  },
  { name: 'CoworkerInvoicesRepository.billedCustomer', run: (db, tx) => new CoworkerInvoicesRepository(db).billedCustomer(1, tx) },
  {
    name: 'BookingProductsRepository.customerOfBooking',
    run: (db, tx) => new BookingProductsRepository(db).customerOfBooking(1, tx),
  },
  { name: 'RecordLinksRepository.listedIds', run: (db, tx) => new RecordLinksRepository(db).listedIds(list, 1, tx) },
  { name: 'RecordLinksRepository.unlist', run: (db, tx) => new RecordLinksRepository(db).unlist(list, 1, [2, 3], tx) },
  { name: 'RecordLinksRepository.list', run: (db, tx) => new RecordLinksRepository(db).list(list, 1, [2, 3], tx) },
  {
    name: 'RecordLinksRepository.names (an id)',
    run: (db, tx) => new RecordLinksRepository(db).names({ table: 'product', column: 'TaxRateId', json: false }, 1, tx),
  },
  {
    name: 'RecordLinksRepository.names (a JSON id list)',
    run: (db, tx) => new RecordLinksRepository(db).names({ table: 'coworkerbookingcredit', column: 'ElegibleProducts', json: true }, 1, tx),
  },
  { name: 'RecordLinksRepository.lockRow (MySQL)', run: (db, tx) => new RecordLinksRepository(db).lockRow(Product, 1, tx) },
  {
    name: 'RecordLinksRepository.businessesOf (a column)',
    run: (db, tx) => new RecordLinksRepository(db).businessesOf(Product, { column: 'BusinessId' }, [1, 2], tx),
  },
  {
    name: 'RecordLinksRepository.businessesOf (through a parent)',
    run: (db, tx) => new RecordLinksRepository(db).businessesOf(CoworkerProduct, { via: () => Coworker, on: 'CoworkerId' }, [1], tx),
  },
  {
    name: 'MigrationLockRepository.ensureTable',
    run: (_db, _tx, dataSource) => new MigrationLockRepository(dataSource, 'migrations').ensureTable(),
  },
  {
    name: 'MigrationLockRepository.ensureRow',
    run: (_db, _tx, dataSource) => new MigrationLockRepository(dataSource, 'migrations').ensureRow(),
  },
  {
    name: 'MigrationLockRepository.claim',
    run: (_db, _tx, dataSource) => new MigrationLockRepository(dataSource, 'migrations').claim('owner', 0, 0),
  },
  {
    name: 'MigrationLockRepository.read',
    run: (_db, _tx, dataSource) => new MigrationLockRepository(dataSource, 'migrations').read(),
  },
  {
    name: 'MigrationLockRepository.renew',
    run: (_db, _tx, dataSource) => new MigrationLockRepository(dataSource, 'migrations').renew('owner', 0),
  },
  {
    name: 'MigrationLockRepository.owner',
    run: (_db, _tx, dataSource) => new MigrationLockRepository(dataSource, 'migrations').owner(),
  },
  {
    name: 'MigrationLockRepository.recordProgress',
    run: (_db, _tx, dataSource) => new MigrationLockRepository(dataSource, 'migrations').recordProgress('owner', null, null),
  },
  {
    name: 'MigrationLockRepository.release',
    run: (_db, _tx, dataSource) => new MigrationLockRepository(dataSource, 'migrations').release('owner'),
  },
  {
    name: 'SchemaRepository.ensureMigrationsTable (MySQL)',
    run: (_db, _tx, dataSource) => new SchemaRepository(dataSource).ensureMigrationsTable('ENGINE=InnoDB'),
  },
  { name: 'SchemaRepository.appliedMigrations', run: (_db, _tx, dataSource) => new SchemaRepository(dataSource).appliedMigrations() },
  { name: 'SchemaRepository.isApplied', run: (_db, _tx, dataSource) => new SchemaRepository(dataSource).isApplied('Migration1') },
  { name: 'SchemaRepository.tables (MySQL)', run: (_db, _tx, dataSource) => new SchemaRepository(dataSource).tables() },
  { name: 'SchemaRepository.columns (MySQL)', run: (_db, _tx, dataSource) => new SchemaRepository(dataSource).columns() },
  { name: 'SchemaRepository.indexes (MySQL)', run: (_db, _tx, dataSource) => new SchemaRepository(dataSource).indexes() },
  { name: 'SchemaRepository.foreignKeys (MySQL)', run: (_db, _tx, dataSource) => new SchemaRepository(dataSource).foreignKeys() },
  {
    name: 'SchemaRepository.withoutForeignKeyChecks (MySQL)',
    run: (_db, _tx, dataSource) => new SchemaRepository(dataSource).withoutForeignKeyChecks(['DROP TABLE IF EXISTS `t`']),
  },
  {
    name: 'SchemaRepository.insertRows',
    run: (_db, _tx, dataSource) =>
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
    await statement.run(db, db.outsideTransaction, dataSource);
    lines.push('', `-- ${statement.name}`, ...(db.sent.length ? db.sent.map((sql) => `${sql};`) : ['-- (nothing on this database)']));
  }
  return `${lines.join('\n')}\n`;
}
