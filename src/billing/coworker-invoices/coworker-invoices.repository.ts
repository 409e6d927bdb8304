import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Coworker } from '../../spaces/coworkers/coworker.entity.js';

/** The details of a customer an invoice is billed to. */
export type BilledCustomer = Pick<Coworker,
  'BusinessId' | 'FullName' | 'CompanyName' | 'BillingName' | 'Address' | 'City' | 'PostCode' | 'CountryId' | 'TaxIDNumber' | 'MobilePhone'>;

/** The reads of customer invoices beyond the machinery's own and the issuance's (TypeORM's find). */
@Injectable()
export class CoworkerInvoicesRepository {
  /** The bill-to details of a customer, read inside the invoice's transaction; null when it is gone. */
  async billedCustomer(coworkerId: number, manager: EntityManager): Promise<BilledCustomer | null> {
    const customer = await manager.findOne(Coworker, {
      select: { Id: true, BusinessId: true, FullName: true, CompanyName: true, BillingName: true, Address: true, City: true, PostCode: true, CountryId: true, TaxIDNumber: true, MobilePhone: true },
      where: { Id: coworkerId },
    });
    if (!customer) return null;
    const { BusinessId, FullName, CompanyName, BillingName, Address, City, PostCode, CountryId, TaxIDNumber, MobilePhone } = customer;
    return { BusinessId: Number(BusinessId), FullName, CompanyName, BillingName, Address, City, PostCode, CountryId: CountryId === null ? null : Number(CountryId), TaxIDNumber, MobilePhone };
  }
}
