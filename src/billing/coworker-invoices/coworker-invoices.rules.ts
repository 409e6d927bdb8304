import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { RecordValidationException } from '../../common/errors.js';
import type { WireRecord } from '../../common/record-definition.js';
import type { RecordRules, SaveContext, SaveDecision } from '../../common/record-rules.js';
import { fromUnits, toUnits } from '../due-items/money.js';
import { Business } from '../../kernel/businesses/business.entity.js';
import { Country } from '../../kernel/countries/country.entity.js';
import { Currency } from '../../kernel/currencies/currency.entity.js';
import { refuseBusinessChange, repointed } from '../invoice-issuance.js';
import { InvoiceIssuanceRepository } from '../invoice-issuance.repository.js';
import { CoworkerInvoicesRepository } from './coworker-invoices.repository.js';
import type { CoworkerInvoiceDto } from './dto/coworker-invoice.dto.js';
import { settle, settledFields } from '../settlement/settled.js';
import { sum, toAmount, units } from '../settlement/money.js';
import { SettlementRepository } from '../settlement/settlement.repository.js';

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
export class CoworkerInvoicesRules implements RecordRules<CoworkerInvoiceDto> {
  @Inject(InvoiceIssuanceRepository) private readonly issuance: InvoiceIssuanceRepository;
  @Inject(CoworkerInvoicesRepository) private readonly invoicesRepository: CoworkerInvoicesRepository;
  @Inject(SettlementRepository) private readonly settlementRepository: SettlementRepository;

  /** The values to write: the body's, with the snapshots and the number the rules above add. */
  async beforeSave({ manager, values: given, existing }: SaveContext<CoworkerInvoiceDto>): Promise<SaveDecision> {
    return { values: await this.valuesToWrite(manager, given, existing) };
  }

  /** The values of an invoice as the rules above make them (also for invoices a billing run issues). */
  async valuesToWrite(manager: EntityManager, given: Readonly<Record<string, unknown>>, existing: WireRecord | null): Promise<Record<string, unknown>> {
    refuseBusinessChange(existing, given);
    const values = { ...given };
    // A partial update names only what it changes: the business is the stored one when absent (docs/api.md §1.2).
    if (repointed(existing, given, 'CoworkerId')) Object.assign(values, await this.billTo(manager, { BusinessId: existing?.BusinessId, ...given }));
    if (repointed(existing, given, 'CurrencyId')) values.CurrencyCode = await this.issuance.lookup(Currency, given.CurrencyId, 'Code', manager);
    if (existing === null) {
      values.BusinessName = await this.issuance.lookup(Business, given.BusinessId, 'Name', manager);
      // The number last, just before the insert: the counter row stays locked until COMMIT, and
      // everything read before it is time other invoices of the business do not wait for (docs/billing.md).
      values.InvoiceNumber = await this.issuance.nextNumber('CoworkerInvoice', given.BusinessId as number, manager);
    }
    // A new invoice is due in full; the settlement of payments keeps DueAmount from then on.
    if (existing === null) values.DueAmount = fromUnits(toUnits(values.TotalAmount ?? 0));
    // An invoice with lines (a run's, a credit note) has their totals: read-only (docs/api.md §9.1, §10.1).
    if (existing !== null && (values.TotalAmount !== undefined || values.TaxAmount !== undefined) && (await this.settlementRepository.hasLines(Number(existing.Id), manager))) {
      delete values.TotalAmount;
      delete values.TaxAmount;
    }
    // Only a new total moves what is due: a record PUT back as read (its total unchanged) keeps its settlement.
    if (existing !== null && values.TotalAmount !== undefined && units(values.TotalAmount as number | null) !== units(existing.TotalAmount as number | null)) Object.assign(values, await this.settledWithTotal(Number(existing.Id), values.TotalAmount as number | null, manager));
    return values;
  }

  /**
   * The settled fields of an invoice whose TotalAmount an update changes (an invoice made by POST has no
   * lines): what is due follows, under the invoice's lock; a total below what was paid and credited is refused.
   */
  private async settledWithTotal(id: number, total: number | null, manager: EntityManager): Promise<Record<string, unknown>> {
    const invoice = await this.settlementRepository.lockInvoice(id, manager);
    if (!invoice) return {};
    const changed = { ...invoice, TotalAmount: units(total) };
    const credited = invoice.CreditNote ? 0n : -sum(await this.settlementRepository.creditNoteTotals(invoice.UniqueId, manager));
    const settled = settle(changed, await this.settlementRepository.entriesOf(id, manager), credited);
    if (settled.due < 0n && !invoice.CreditNote) {
      throw RecordValidationException.field('TotalAmount', `TotalAmount cannot be below what was paid and credited on invoice ${invoice.InvoiceNumber} (${toAmount(settled.paid + credited)}).`, total);
    }
    return settledFields(settled);
  }

  /** The bill-to details of the invoice's customer, who must be a customer of its business. */
  private async billTo(manager: EntityManager, values: Readonly<Record<string, unknown>>): Promise<Record<string, unknown>> {
    const customer = await this.invoicesRepository.billedCustomer(Number(values.CoworkerId), manager);
    // The machinery checked the customer exists; a delete that committed since is still a 400.
    if (!customer) throw RecordValidationException.field('CoworkerId', `Coworker ${values.CoworkerId} does not exist`, values.CoworkerId);
    if (customer.BusinessId !== Number(values.BusinessId)) {
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
      BillToCountryName: await this.issuance.lookup(Country, customer.CountryId, 'Name', manager),
    };
  }
}

/** Whether a stored wire value equals a value about to be written (decimal text, Date, flag). */
