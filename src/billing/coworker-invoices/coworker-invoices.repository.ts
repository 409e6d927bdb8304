import { Injectable } from '@nestjs/common';
import { Database } from '../../persistence/database.js';
import { CoworkerInvoice } from './coworker-invoice.entity.js';
import { Coworker } from '../../customers/coworker.entity.js';
import type { Tx } from '../../persistence/tx.js';

/** The details of a customer an invoice is billed to. */
export type BilledCustomer = Pick<
  Coworker,
  'BusinessId' | 'FullName' | 'CompanyName' | 'BillingName' | 'Address' | 'City' | 'PostCode' | 'CountryId' | 'TaxIDNumber' | 'MobilePhone'
>;

const BILLED_CUSTOMER_COLUMNS: ReadonlyArray<keyof BilledCustomer> = [
  'BusinessId',
  'FullName',
  'CompanyName',
  'BillingName',
  'Address',
  'City',
  'PostCode',
  'CountryId',
  'TaxIDNumber',
  'MobilePhone',
];

/** The reads of customer invoices beyond the machinery's own and the issuance's. */
@Injectable()
export class CoworkerInvoicesRepository {
  constructor(private readonly db: Database) {}

  /** How many customer invoices the customer has (a first invoice fires its own webhook action). */
  async invoiceCount(coworkerId: unknown, tx: Tx): Promise<number> {
    const { db } = this;
    const [count] = await db.query(
      `SELECT COUNT(*) AS n FROM ${db.tableOf(CoworkerInvoice)} WHERE ${db.id('CoworkerId')} = ?`,
      [coworkerId],
      tx,
    );
    return Number(count.n);
  }

  /** The bill-to details of a customer, read inside the invoice's transaction; null when it is gone. */
  async billedCustomer(coworkerId: number, tx: Tx): Promise<BilledCustomer | null> {
    const { db } = this;
    const columns = BILLED_CUSTOMER_COLUMNS.map((name) => db.id(name)).join(', ');
    const [customer] = await db.query<BilledCustomer>(
      `SELECT ${columns} FROM ${db.tableOf(Coworker)} WHERE ${db.id('Id')} = ?`,
      [coworkerId],
      tx,
    );
    return customer ? billedCustomerOf(customer) : null;
  }

  /** The bill-to details of several customers by one read (a billing run's batch), by customer Id; the gone ones absent. */
  async billedCustomers(coworkerIds: readonly number[], tx: Tx): Promise<Map<number, BilledCustomer>> {
    const { db } = this;
    const columns = BILLED_CUSTOMER_COLUMNS.map((name) => db.id(name)).join(', ');
    const rows = await db.query<BilledCustomer & { Id: unknown }>(
      `SELECT ${db.id('Id')}, ${columns} FROM ${db.tableOf(Coworker)} WHERE ${db.id('Id')} IN (${coworkerIds.map(() => '?').join(', ')})`,
      [...coworkerIds],
      tx,
    );
    return new Map(rows.map((row) => [Number(row.Id), billedCustomerOf(row)]));
  }
}

function billedCustomerOf(row: BilledCustomer): BilledCustomer {
  const { BusinessId, FullName, CompanyName, BillingName, Address, City, PostCode, CountryId, TaxIDNumber, MobilePhone } = row;
  return {
    BusinessId: Number(BusinessId),
    FullName,
    CompanyName,
    BillingName,
    Address,
    City,
    PostCode,
    CountryId: CountryId === null ? null : Number(CountryId),
    TaxIDNumber,
    MobilePhone,
  };
}
