import { Injectable } from '@nestjs/common';
import { RecordService, type SaveContext } from '../../common/record.service.js';
import { Country } from '../../sys/countries/country.entity.js';
import { Currency } from '../../sys/currencies/currency.entity.js';
import { lookup, nextInvoiceNumber, refuseBusinessChange, repointed } from '../invoice-issuance.js';
import type { Invoice } from './invoice.entity.js';

/**
 * Issuance of the platform's invoices (docs/api.md §3.1). On create: the next number of the business's
 * series, CurrencyCode from CurrencyId and BillToCountryName from BillToCountryId are stored. On
 * update (docs/api.md §9.4) the request rewrites the bill-to details; BillToCountryName is captured again
 * only when the request names another country, so renaming a country never changes an invoice. The
 * currency cannot be changed, and the business neither (the number belongs to its series).
 */
@Injectable()
export class InvoicesService extends RecordService<Invoice> {
  protected override async beforeSave({ manager, values, existing }: SaveContext): Promise<void> {
    refuseBusinessChange(existing, values);
    if (repointed(existing, values, 'BillToCountryId')) {
      values.BillToCountryName = await lookup(this.db, manager, Country, values.BillToCountryId, 'Name');
    }
    if (existing === null) {
      values.CurrencyCode = await lookup(this.db, manager, Currency, values.CurrencyId, 'Code');
      values.InvoiceNumber = await nextInvoiceNumber(this.db, manager, 'Invoice', values.BusinessId as number);
    }
  }
}
