// Seeds a benchmark database through the service's own migrations and entity metadata: rows are
// generated from the columns the entities declare, so the seed follows the schema as it changes.
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { hashPassword } from '../src/auth/passwords.js';
import { wireKindOf } from '../src/records/columns.js';
import type { AppConfig } from '../src/config/configuration.js';
import { buildDataSourceOptions } from '../src/database/data-source-options.js';
import { runMigrations } from '../src/database/migration-runner.js';

export const BENCH_EMAIL = 'bench@example.com';
export const BENCH_PASSWORD = 'bench-password-123';
export const BUSINESSES = 20;
export const PRODUCTS = 10_000;
export const INVOICES = 100_000;
/** Check-in case (docs/presence.md): customers of business 1, each holding this many unused passes. */
export const PRESENCE_CUSTOMERS = 40;
export const PASSES_PER_CUSTOMER = Number(process.env.BENCH_PASSES_PER_CUSTOMER ?? 4000);

/** Who the check-in case checks in: customers of `business` with passes. */
export interface PresenceSetup {
  business: number;
  customers: number[];
}

type Row = Record<string, unknown>;

function defaultValue(kind: string | undefined, nullable: boolean): unknown {
  if (nullable) return null;
  switch (kind) {
    case 'bool':
      return 0;
    case 'int':
    case 'money':
      return 0;
    default:
      return '';
  }
}

/** How many rows to seed. */
export interface SeedSizes {
  products: number;
  invoices: number;
  /** Seed the check-in case's passes (npm run bench only). */
  presence?: boolean;
}

/** The invoices' due dates run from this day over two years, in the order of their ids (as issued). */
export const FIRST_DUE_DATE = Date.UTC(2024, 0, 1);
export const DUE_DATE_DAYS = 730;

/** The check-in case's customers, once seedRows has made them. */
export let presence: PresenceSetup | undefined;

/**
 * A TimePass of `business` and PRESENCE_CUSTOMERS customers, each with PASSES_PER_CUSTOMER unused passes
 * that expire in 2100: every check-in of the bench uses one (rule 3 of docs/presence.md).
 */
async function seedPresence(
  dataSource: DataSource,
  insert: (table: string, count: number, make: (i: number) => Row) => Promise<void>,
  business: number,
  currency: number,
): Promise<PresenceSetup> {
  const q = (name: string) => dataSource.driver.escape(name);
  const nextId = async (table: string) =>
    Number((await dataSource.query(`SELECT COALESCE(MAX(${q('Id')}), 0) AS n FROM ${q(table)}`))[0].n) + 1;
  const timePass = await nextId('timepass');
  await insert('timepass', 1, () => ({ BusinessId: business, Name: 'Bench day pass', Price: 20, CurrencyId: currency }));
  const firstCustomer = await nextId('coworker');
  const customers = PRESENCE_CUSTOMERS;
  await insert('coworker', customers, (i) => ({
    BusinessId: business,
    FullName: `Bench visitor ${i}`,
    Email: `bench.visitor.${i}@example.com`,
    CoworkerType: 1,
  }));
  await insert('coworkertimepass', customers * PASSES_PER_CUSTOMER, (i) => ({
    CoworkerId: firstCustomer + (i % customers),
    BusinessId: business,
    TimePassId: timePass,
    Price: 20,
    SaleDate: '2026-01-01 00:00:00',
    ExpireDate: '2100-01-01 00:00:00',
  }));
  return { business, customers: Array.from({ length: customers }, (_, i) => firstCustomer + i) };
}

/** Migrates the database, then seeds it (see seedRows). */
export async function seed(
  config: Pick<AppConfig, 'database' | 'DATABASE_POOL_SIZE' | 'REQUEST_TIMEOUT_MS'>,
  sizes: SeedSizes = { products: PRODUCTS, invoices: INVOICES, presence: true },
): Promise<void> {
  const dataSource = await new DataSource(buildDataSourceOptions(config)).initialize();
  await runMigrations(dataSource);
  await seedRows(dataSource, sizes);
  await dataSource.destroy();
}

/**
 * Inserts, as multi-row INSERTs with bound parameters, BUSINESSES businesses, the bench administrator,
 * and the products and invoices spread evenly over the businesses, into a migrated database.
 */
export async function seedRows(dataSource: DataSource, sizes: SeedSizes): Promise<void> {
  const now = new Date().toISOString().replace('T', ' ').replace('Z', '');
  const q = (name: string) => dataSource.driver.escape(name);

  async function insert(table: string, count: number, make: (i: number) => Row): Promise<void> {
    const metadata = dataSource.entityMetadatas.find((m) => m.tableName === table);
    if (!metadata) throw new Error(`No entity for table ${table}`);
    const columns = metadata.columns.filter((c) => !c.isGenerated);
    const names = columns.map((c) => c.databaseName);
    const batch = Math.max(1, Math.floor(30_000 / names.length));
    await dataSource.transaction(async (manager) => {
      for (let start = 0; start < count; start += batch) {
        const rows: unknown[] = [];
        const end = Math.min(count, start + batch);
        for (let i = start; i < end; i++) {
          const given = make(i);
          for (const column of columns) {
            const name = column.propertyName;
            if (name in given) rows.push(given[name]);
            else if (name === 'UniqueId') rows.push(randomUUID());
            else if (name === 'CreatedOn' || name === 'UpdatedOn') rows.push(now);
            else if (name === 'IsNew') rows.push(1);
            else if (column.default !== undefined) rows.push(typeof column.default === 'boolean' ? Number(column.default) : column.default);
            else rows.push(defaultValue(wireKindOf(metadata.target as never, name), column.isNullable));
          }
        }
        const tuple = `(${names.map(() => '?').join(', ')})`;
        await manager.query(
          `INSERT INTO ${q(table)} (${names.map(q).join(', ')}) VALUES ${Array.from({ length: end - start }, () => tuple).join(', ')}`,
          rows,
        );
      }
    });
  }

  const [gbp] = await dataSource.query(`SELECT ${q('Id')} AS id FROM ${q('currency')} WHERE ${q('Code')} = 'GBP'`);
  const [gb] = await dataSource.query(`SELECT ${q('Id')} AS id FROM ${q('country')} WHERE ${q('TwoDigitsCode')} = 'GB'`);
  const [{ first }] = await dataSource.query(`SELECT COALESCE(MAX(${q('Id')}), 0) AS first FROM ${q('business')}`);
  await insert('business', BUSINESSES, (i) => ({ Name: `Bench Business ${i + 1}`, CurrencyId: gbp.id, CountryId: gb.id, City: 'London' }));
  const businessId = (i: number) => Number(first) + (i % BUSINESSES) + 1;
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  await insert('user', 1, () => ({
    Email: BENCH_EMAIL,
    EmailKey: BENCH_EMAIL,
    FullName: 'Bench Admin',
    PasswordHash: passwordHash,
    Active: 1,
    IsAdmin: 1,
  }));
  await insert('product', sizes.products, (i) => ({
    BusinessId: businessId(i),
    Name: `Product ${i + 1}`,
    Description: `Bench product number ${i + 1}`,
    SystemProductType: 99,
    AvailableAs: 1,
    Price: 10 + (i % 90),
    CurrencyId: gbp.id,
    DisplayOrder: i % 10,
    Visible: 1,
    CurrentStock: 100,
    StockAlertLevel: 5,
  }));
  // Each business's invoices are numbered 1, 2, … and due on days that advance with their numbers.
  const perBusiness = Math.ceil(sizes.invoices / BUSINESSES);
  const dueDate = (i: number) =>
    new Date(FIRST_DUE_DATE + Math.floor((Math.floor(i / BUSINESSES) * DUE_DATE_DAYS) / perBusiness) * 86_400_000)
      .toISOString()
      .replace('T', ' ')
      .replace('Z', '');
  await insert('invoice', sizes.invoices, (i) => ({
    BusinessId: businessId(i),
    DueDate: dueDate(i),
    InvoiceNumber: String(Math.floor(i / BUSINESSES) + 1),
    BillToName: `Customer ${i}`,
    BillToAddress: '1 High Street',
    BillToCity: 'London',
    BillToPostCode: 'N1 1AA',
    BillToCountryId: gb.id,
    BillToCountryName: 'United Kingdom',
    CurrencyId: gbp.id,
    CurrencyCode: 'GBP',
    TotalAmount: 100 + (i % 500),
    TaxAmount: 20,
    DiscountAmount: 0,
    SubscriptionAmount: 0,
    ResellerAmount: 0,
    Paid: i % 2,
    PaymentAttemptsCount: 0,
  }));
  if (sizes.presence) presence = await seedPresence(dataSource, insert, businessId(0), gbp.id);
  // The numbering goes on from the seeded numbers, so invoices created later get numbers of their own.
  const sequences = Array.from({ length: Math.min(BUSINESSES, sizes.invoices) }, (_, b) => [
    'Invoice',
    businessId(b),
    Math.floor((sizes.invoices - b - 1) / BUSINESSES) + 1,
  ]);
  if (sequences.length) {
    await dataSource.query(
      `INSERT INTO ${q('invoice_sequence')} (${q('Series')}, ${q('BusinessId')}, ${q('LastNumber')}) VALUES ${sequences.map(() => '(?, ?, ?)').join(', ')}`,
      sequences.flat(),
    );
  }
}

/** What the booking case books: resources of business 1, and its customers, each with credit that lasts. */
export interface BookingSetup {
  resources: number[];
  customers: number[];
}

/**
 * Made through the running service's API (as a client would): a resource type, 20 resources at 10 an
 * hour, and 20 customers of business 1, each with a booking credit far larger than the bench spends.
 */
export async function seedBookings(base: string, auth: Record<string, string>): Promise<BookingSetup> {
  const post = async (path: string, body: Record<string, unknown>): Promise<number> => {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as { Value?: { Id: number }; Message?: string };
    if (!response.ok || !answer.Value)
      throw new Error(`seeding bookings: POST ${path} answered ${response.status} ${answer.Message ?? ''}`);
    return answer.Value.Id;
  };
  const type = await post('/api/spaces/resourcetypes', { BusinessId: 1, Name: 'Bench rooms' });
  const setup: BookingSetup = { resources: [], customers: [] };
  for (let i = 0; i < 20; i++) {
    setup.resources.push(
      await post('/api/spaces/resources', { BusinessId: 1, Name: `Bench room ${i}`, ResourceTypeId: type, HourlyPrice: 10 }),
    );
    const customer = await post('/api/spaces/coworkers', {
      BusinessId: 1,
      FullName: `Bench booker ${i}`,
      Email: `bench.booker.${i}@example.com`,
    });
    await post('/api/billing/coworkerbookingcredits', { CoworkerId: customer, CaneBeUsedForBookings: true, TotalCredit: 1_000_000_000 });
    setup.customers.push(customer);
  }
  return setup;
}
