import { RefreshTokenRepository } from './auth/refresh-token.repository.js';
import { UserLoginRepository } from './auth/user-login.repository.js';
import { coworkerBookingCredits } from './billing/coworker-booking-credits/coworker-booking-credits.definition.js';
import { CoworkerBookingCreditsRepository } from './billing/coworker-booking-credits/coworker-booking-credits.repository.js';
import { coworkerInvoiceLines } from './billing/coworker-invoice-lines/coworker-invoice-lines.definition.js';
import { CoworkerProduct } from './billing/coworker-products/coworker-product.entity.js';
import { coworkerProducts } from './billing/coworker-products/coworker-products.definition.js';
import { Product } from './billing/products/product.entity.js';
import { products } from './billing/products/products.definition.js';
import { Coworker } from './customers/coworker.entity.js';
import { MigrationLockRepository } from './database/migration-lock.repository.js';
import { SchemaRepository } from './database/schema.repository.js';
import { DownloadFilesRepository } from './downloads/download-files.repository.js';
import { HealthRepository } from './health/health.repository.js';
import { IdempotencyRepository } from './http/idempotency/idempotency.repository.js';
import { WebhooksRepository } from './integrations/webhooks/webhooks.repository.js';
import { taxRates } from './kernel/tax-rates/tax-rates.definition.js';
import type { Database } from './persistence/database.js';
import { ChangeLogRepository, type ChangeLogRow } from './records/change-log/change-log.repository.js';
import type { RecordDefinition } from './records/record-definition.js';
import { parseListQuery } from './records/list-query.js';
import { compileRecordPlan } from './records/record-plan.js';
import { RecordLinksRepository } from './records/record-links.repository.js';
import { RecordRepository } from './records/record.repository.js';
import type { NamedStatement } from './repository-sql.js';

const at = new Date(0);
const list = { table: 'product_tariff', on: 'ProductId', column: 'TariffId' };

/** The record machinery's repository of one type; `referrers` are the types it asks about a record's referrers. */
function records(db: Database, definition: RecordDefinition<any>, referrers: RecordDefinition<any>[] = []): RecordRepository {
  return new RecordRepository(db, compileRecordPlan(definition, db), definition, () => referrers);
}

/** A change-log entry of a product's update. */
const ENTRY: ChangeLogRow = {
  entity: 'Product',
  recordId: 1,
  action: 'Update',
  on: at,
  by: 'admin@example.com',
  requestId: 'r',
  businessId: 1,
  previousBusinessId: null,
  changes: '[]',
};

/** Two invoice lines of a billing run, written at once. */
const LINES = [1, 2].map((position) => ({ UniqueId: `u${position}`, CoworkerInvoiceId: 1, Description: 'Desk', Position: position }));

/**
 * The statements of the record machinery's and the infrastructure's repositories (src/records, database,
 * auth, http, downloads, health), by method. The record machinery's reads by id, pages, batches, inserts,
 * updates and deletes are in every docs/sql/<dialect>/<Type>.sql; here are its other statements, for one type.
 */
export const PLATFORM_STATEMENTS: NamedStatement[] = [
  {
    name: "RecordRepository.narrowed (a customer's credits that can still pay: CoworkerBookingCreditsRepository.applicableCondition)",
    run: (db) => {
      const repository = records(db, coworkerBookingCredits);
      const query = parseListQuery({}, repository.plan.listSchema);
      return repository.narrowed(query, null, new CoworkerBookingCreditsRepository(db).applicableCondition(1, at));
    },
  },
  { name: 'RecordRepository.currentEtag', run: (db, tx) => records(db, products).currentEtag(1, tx) },
  {
    name: "RecordRepository.insertMany (a billing run's lines; RETURNING: SQLite, MariaDB 10.5+)",
    run: (db, tx) => records(db, coworkerInvoiceLines).insertMany(LINES, tx),
  },
  {
    name: "RecordRepository.insertMany (a billing run's lines; MySQL, without RETURNING)",
    run: (db, tx) => {
      if (!db.isMySql) return Promise.resolve();
      db.returning = false;
      return records(db, coworkerInvoiceLines).insertMany(LINES, tx);
    },
  },
  {
    name: 'RecordRepository.parentBusiness',
    run: (db, tx) => records(db, coworkerProducts).parentBusiness({ via: () => Coworker, on: 'CoworkerId' }, 1, tx),
  },
  {
    name: 'RecordRepository.referringTypes (of a tax rate, asked of products)',
    run: (db, tx) => records(db, taxRates, [products]).referringTypes(1, tx),
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
    name: 'ChangeLogRepository.insert (a webhook probe, WebhooksRepository.activeHookCount, on its RETURNING: SQLite, MariaDB 10.5+)',
    rows: [{ p0: 0 }],
    run: (db, tx) => new ChangeLogRepository(db).insert(ENTRY, [new WebhooksRepository(db).activeHookCount(1, [1, 2]), null], tx),
  },
  {
    name: 'ChangeLogRepository.insert (a webhook probe; MySQL, without RETURNING)',
    rows: [{ n: 0 }],
    run: (db, tx) => {
      if (!db.isMySql) return Promise.resolve();
      db.returning = false;
      return new ChangeLogRepository(db).insert(ENTRY, [new WebhooksRepository(db).activeHookCount(1, [1, 2])], tx);
    },
  },
  {
    name: 'ChangeLogRepository.insertMany (two entries, one probe run once)',
    rows: [{ n: 0 }],
    run: (db, tx) => {
      const probe = new WebhooksRepository(db).activeHookCount(1, [1, 2]);
      return new ChangeLogRepository(db).insertMany([ENTRY, { ...ENTRY, recordId: 2 }], [[probe], [probe]], tx);
    },
  },
  {
    name: "ChangeLogRepository.count (a restricted administrator's)",
    rows: [{ n: 0 }],
    run: (db) => new ChangeLogRepository(db).count({ entity: 'Product', recordId: 1, businessIds: [1, 2] }),
  },
  { name: 'ChangeLogRepository.page', run: (db) => new ChangeLogRepository(db).page({ entity: 'Product', recordId: 1 }, 20, 0) },
  {
    name: 'RefreshTokenRepository.insert',
    run: (db, tx) =>
      new RefreshTokenRepository(db).insert({ userId: 1, clientId: 'c', tokenHash: 'h', createdOn: at, expiresOn: at, familyId: 'f' }, tx),
  },
  { name: 'RefreshTokenRepository.findByHash', run: (db) => new RefreshTokenRepository(db).findByHash('h') },
  { name: 'RefreshTokenRepository.revokeFamily', run: (db) => new RefreshTokenRepository(db).revokeFamily('f', 1, at) },
  { name: 'RefreshTokenRepository.revokeLive (one client)', run: (db, tx) => new RefreshTokenRepository(db).revokeLive(1, 'c', tx) },
  {
    name: 'RefreshTokenRepository.revokeLive (every client)',
    run: (db, tx) => new RefreshTokenRepository(db).revokeLive(1, undefined, tx),
  },
  { name: 'UserLoginRepository.findByEmail', run: (db) => new UserLoginRepository(db).findByEmail('a@example.com') },
  { name: 'UserLoginRepository.findAccess', run: (db, tx) => new UserLoginRepository(db).findAccess(1, at, tx) },
  { name: 'UserLoginRepository.resetFailedLogins', run: (db) => new UserLoginRepository(db).resetFailedLogins(1) },
  { name: 'UserLoginRepository.recordFailedLogin', run: (db) => new UserLoginRepository(db).recordFailedLogin(1, 5, at) },
  { name: 'IdempotencyRepository.find', run: (db) => new IdempotencyRepository(db).find('scope') },
  { name: 'IdempotencyRepository.storedBytes', run: (db) => new IdempotencyRepository(db).storedBytes(1) },
  { name: 'IdempotencyRepository.oldestRefusals', run: (db) => new IdempotencyRepository(db).oldestRefusals(1, 10) },
  { name: 'IdempotencyRepository.deleteRefusals', run: (db) => new IdempotencyRepository(db).deleteRefusals([1, 2]) },
  { name: 'IdempotencyRepository.delete', run: (db) => new IdempotencyRepository(db).delete(1) },
  { name: 'IdempotencyRepository.deleteExpired', run: (db) => new IdempotencyRepository(db).deleteExpired(at) },
  {
    // The user has two files and keeps one: the older one is dropped.
    name: "DownloadFilesRepository.insert (a user's files beyond the bound dropped)",
    rows: [
      { Id: 2, ByteCount: 10 },
      { Id: 1, ByteCount: 10 },
    ],
    run: (db) =>
      new DownloadFilesRepository(db).insert(
        'h',
        { FileName: 'invoice.pdf', ContentType: 'application/pdf', Content: Buffer.from('%PDF') },
        at,
        1,
        { files: 1, bytes: 1000 },
      ),
  },
  { name: 'DownloadFilesRepository.find', run: (db) => new DownloadFilesRepository(db).find('h', at) },
  { name: 'HealthRepository.ping', run: (db) => new HealthRepository(db).ping() },
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
