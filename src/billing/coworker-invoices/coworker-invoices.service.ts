import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { RecordValidationException } from '../../common/errors.js';
import type { Principal } from '../../common/principal.js';
import { formatDateTime } from '../../common/wire-values.js';
import { RecordService, type SaveContext, type SaveDecision } from '../../common/record.service.js';
import { fromUnits, toUnits } from '../due-items/money.js';
import { Business } from '../../sys/businesses/business.entity.js';
import { Country } from '../../sys/countries/country.entity.js';
import { Currency } from '../../sys/currencies/currency.entity.js';
import { refuseBusinessChange, repointed } from '../invoice-issuance.js';
import { InvoiceIssuanceRepository } from '../invoice-issuance.repository.js';
import type { CoworkerInvoice } from './coworker-invoice.entity.js';
import { CoworkerInvoicesRepository } from './coworker-invoices.repository.js';
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
export class CoworkerInvoicesService extends RecordService<CoworkerInvoice> {
  @Inject(InvoiceIssuanceRepository) private readonly issuance: InvoiceIssuanceRepository;
  @Inject(CoworkerInvoicesRepository) private readonly invoicesRepository: CoworkerInvoicesRepository;
  @Inject(SettlementRepository) private readonly settlementRepository: SettlementRepository;

  /** The values to write: the body's, with the snapshots and the number the rules above add. */
  protected override async beforeSave({ manager, values: given, existing }: SaveContext): Promise<SaveDecision> {
    refuseBusinessChange(existing, given);
    const values = { ...given };
    // A partial update names only what it changes: the business is the stored one when absent (docs/api.md §1.2).
    if (repointed(existing, given, 'CoworkerId')) Object.assign(values, await this.billTo(manager, { BusinessId: existing?.BusinessId, ...given }));
    if (repointed(existing, given, 'CurrencyId')) values.CurrencyCode = await this.issuance.lookup(Currency, given.CurrencyId, 'Code', manager);
    if (existing === null) {
      values.InvoiceNumber = await this.issuance.nextNumber('CoworkerInvoice', given.BusinessId as number, manager);
      values.BusinessName = await this.issuance.lookup(Business, given.BusinessId, 'Name', manager);
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
    return { values };
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

  /**
   * Writes an invoice's settled fields (docs/api.md §10.1, InvoiceSettlement) when any of them changed,
   * raising its version, with its change-log entry (and so its webhooks), in the caller's transaction.
   */
  async applySettlement(id: number, fields: Readonly<Record<string, unknown>>, manager: EntityManager, actor: Principal | undefined): Promise<void> {
    const before = await this.get(id, undefined, manager);
    if (Object.entries(fields).every(([field, value]) => sameWireValue(before[field], value))) return;
    await this.updateRow(id, { ...fields, UpdatedOn: new Date(), UpdatedBy: actor?.email ?? null, IsNew: false }, manager);
    await this.recordChange(manager, actor, 'Update', id, before);
  }

  /**
   * Issues an invoice inside a running transaction (a billing run, docs/billing.md): numbered, captured
   * and defaulted as one created through the API. Its change-log entry (and webhook events 16 and 15)
   * is the caller's to record once its lines are written (`recordIssued`).
   */
  async issue(manager: EntityManager, actor: Principal | undefined, given: Record<string, unknown>): Promise<{ id: number; written: Record<string, unknown> }> {
    const decision = await this.beforeSave({ manager, actor, dto: {}, values: given, existing: null });
    const now = new Date();
    const written = { ...decision.values, UniqueId: randomUUID(), CreatedOn: now, UpdatedOn: now, UpdatedBy: actor?.email ?? null, IsNew: true };
    const id = await this.insertRow(written, manager);
    return { id, written };
  }

  /** The change-log entry of an issued invoice: its history, and the webhook events it fires. */
  recordIssued(manager: EntityManager, actor: Principal | undefined, id: number, written: Record<string, unknown>): Promise<void> {
    return this.recordChange(manager, actor, 'Create', id, null, undefined, written);
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
function sameWireValue(stored: unknown, value: unknown): boolean {
  if (value instanceof Date) return stored === formatDateTime(value);
  if (typeof value === 'string' && typeof stored === 'number') return Number(value) === stored;
  return (stored ?? null) === (value ?? null);
}
