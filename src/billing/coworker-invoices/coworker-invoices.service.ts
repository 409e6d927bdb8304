import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { RecordValidationException } from '../../common/errors.js';
import { RecordService, type SaveContext } from '../../common/record.service.js';
import { Coworker } from '../../spaces/coworkers/coworker.entity.js';
import { Country } from '../../sys/countries/country.entity.js';
import { Currency } from '../../sys/currencies/currency.entity.js';
import { lookup, nextInvoiceNumber, refuseBusinessChange, repointed } from '../invoice-issuance.js';
import type { CoworkerInvoice } from './coworker-invoice.entity.js';

interface Customer {
  BusinessId: number;
  FullName: string;
  CompanyName: string | null;
  BillingName: string | null;
  Address: string | null;
  City: string | null;
  PostCode: string | null;
  CountryId: number | null;
  TaxIDNumber: string | null;
  MobilePhone: string | null;
}

/**
 * Issuance of customer invoices (docs/api.md §3.1). On create: the next number of the business's
 * series; from the customer, its name (CoworkerFullName) and the bill-to details (BillToName is its
 * BillingName, else its CompanyName, else its FullName; BillToPhone its MobilePhone; customers have
 * no fax, so BillToFax stays empty); BillToCountryName from the customer's country; CurrencyCode
 * from CurrencyId. Edits to the customer, country or currency never reach an issued invoice: an
 * update captures the customer's details again only when it gives the invoice to another customer,
 * and the currency code only when it names another currency. The business cannot change (the
 * number belongs to its series).
 */
@Injectable()
export class CoworkerInvoicesService extends RecordService<CoworkerInvoice> {
  protected override async beforeSave({ manager, values, existing }: SaveContext): Promise<void> {
    refuseBusinessChange(existing, values);
    if (repointed(existing, values, 'CoworkerId')) Object.assign(values, await this.billTo(manager, values));
    if (repointed(existing, values, 'CurrencyId')) values.CurrencyCode = await lookup(this.db, manager, Currency, values.CurrencyId, 'Code');
    if (existing === null) values.InvoiceNumber = await nextInvoiceNumber(this.db, manager, 'CoworkerInvoice', values.BusinessId as number);
  }

  /** The bill-to details of the invoice's customer, who must be a customer of its business. */
  private async billTo(manager: EntityManager, values: Record<string, unknown>): Promise<Record<string, unknown>> {
    const q = (name: string) => this.db.id(name);
    const [customer] = await this.db.query<Customer>(`SELECT * FROM ${this.db.tableOf(Coworker)} WHERE ${q('Id')} = ?`, [values.CoworkerId], manager);
    // The machinery checked the customer exists; a delete that committed since is still a 400.
    if (!customer) throw RecordValidationException.field('CoworkerId', `Coworker ${values.CoworkerId} does not exist`, values.CoworkerId);
    if (Number(customer.BusinessId) !== Number(values.BusinessId)) {
      throw RecordValidationException.field('CoworkerId', `Coworker ${values.CoworkerId} is not a customer of Business ${values.BusinessId}.`, values.CoworkerId);
    }
    return {
      CoworkerFullName: customer.FullName,
      BillToName: customer.BillingName || customer.CompanyName || customer.FullName,
      BillToAddress: customer.Address,
      BillToCity: customer.City,
      BillToPostCode: customer.PostCode,
      BillToTaxIDNumber: customer.TaxIDNumber,
      BillToPhone: customer.MobilePhone,
      BillToFax: null,
      BillToCountryId: customer.CountryId,
      BillToCountryName: await lookup(this.db, manager, Country, customer.CountryId, 'Name'),
    };
  }
}
