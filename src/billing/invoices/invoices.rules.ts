import { Inject, Injectable } from '@nestjs/common';
import { Country } from '../../kernel/countries/country.entity.js';
import { Currency } from '../../kernel/currencies/currency.entity.js';
import { refuseBusinessChange, repointed } from '../invoice-issuance.js';
import { InvoiceIssuanceRepository } from '../invoice-issuance.repository.js';
import type { RecordRules, SaveContext, SaveDecision } from '../../records/record-rules.js';
import type { InvoiceDto } from './dto/invoice.dto.js';

/**
 * Issuance of the platform's invoices (docs/api.md §3.1). On create: the next number of the business's
 * series, CurrencyCode from CurrencyId and BillToCountryName from BillToCountryId are stored. On
 * update (docs/api.md §9.4) the request rewrites the bill-to details; BillToCountryName is captured again
 * only when the request names another country, so renaming a country never changes an invoice. The
 * currency cannot be changed, and the business neither (the number belongs to its series).
 */
@Injectable()
export class InvoicesRules implements RecordRules<InvoiceDto> {
  @Inject(InvoiceIssuanceRepository) private readonly issuance: InvoiceIssuanceRepository;

  /** The values to write: the body's, with the snapshots and the number the rules above add. */
  async beforeSave({ tx, values: given, existing }: SaveContext<InvoiceDto>): Promise<SaveDecision> {
    refuseBusinessChange(existing, given);
    const values = { ...given };
    if (repointed(existing, given, 'BillToCountryId')) {
      values.BillToCountryName = await this.issuance.lookup(Country, given.BillToCountryId, 'Name', tx);
    }
    if (existing === null) {
      values.CurrencyCode = await this.issuance.lookup(Currency, given.CurrencyId, 'Code', tx);
      values.InvoiceNumber = await this.issuance.nextNumber('Invoice', given.BusinessId as number, tx);
    }
    return { values };
  }
}
