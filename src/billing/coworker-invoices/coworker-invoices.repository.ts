import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Database } from '../../persistence/database.js';
import { CoworkerInvoice } from './coworker-invoice.entity.js';
import { Coworker } from '../../customers/coworker.entity.js';

/** The details of a customer an invoice is billed to. */
export type BilledCustomer = Pick<
  Coworker,
  'BusinessId' | 'FullName' | 'CompanyName' | 'BillingName' | 'Address' | 'City' | 'PostCode' | 'CountryId' | 'TaxIDNumber' | 'MobilePhone'
>;

/** The reads of customer invoices beyond the machinery's own and the issuance's (TypeORM's find). */
@Injectable()
export class CoworkerInvoicesRepository {
  constructor(private readonly db: Database) {}

  /** How many customer invoices the customer has (a first invoice fires its own webhook action). */
  async invoiceCount(coworkerId: unknown, manager: EntityManager): Promise<number> {
    const { db } = this;
    const [count] = await db.query(
      `SELECT COUNT(*) AS n FROM ${db.tableOf(CoworkerInvoice)} WHERE ${db.id('CoworkerId')} = ?`,
      [coworkerId],
      manager,
    );
    return Number(count.n);
  }

  /** The bill-to details of a customer, read inside the invoice's transaction; null when it is gone. */
  async billedCustomer(coworkerId: number, manager: EntityManager): Promise<BilledCustomer | null> {
    const customer = await manager.findOne(Coworker, {
      select: {
        Id: true,
        BusinessId: true,
        FullName: true,
        CompanyName: true,
        BillingName: true,
        Address: true,
        City: true,
        PostCode: true,
        CountryId: true,
        TaxIDNumber: true,
        MobilePhone: true,
      },
      where: { Id: coworkerId },
    });
    if (!customer) return null;
    const { BusinessId, FullName, CompanyName, BillingName, Address, City, PostCode, CountryId, TaxIDNumber, MobilePhone } = customer;
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
}
