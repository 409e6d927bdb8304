import { Inject, Injectable } from '@nestjs/common';
import { RecordValidationException } from '../../records/errors.js';
import type { WireRecord } from '../../records/record-definition.js';
import type { DeleteContext, RecordRules, SaveContext, SaveDecision } from '../../records/record-rules.js';
import { Business } from '../../kernel/businesses/business.entity.js';
import { Country } from '../../kernel/countries/country.entity.js';
import { Currency } from '../../kernel/currencies/currency.entity.js';
import { refuseBusinessChange, repointed } from '../invoice-issuance.js';
import { InvoiceIssuanceRepository } from '../invoice-issuance.repository.js';
import { CoworkerInvoicesRepository, type BilledCustomer } from './coworker-invoices.repository.js';
import type { CoworkerInvoiceDto } from './dto/coworker-invoice.dto.js';
import { fromUnits, toUnits } from '../../kernel/money.js';
import { InvoiceBooks } from './invoice-books.js';
import type { Tx } from '../../persistence/tx.js';

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
  /** The invoice's lines, settlement and own ledger entry, which parts above keep. */
  @Inject(InvoiceBooks) private readonly books: InvoiceBooks;
  private deletionRule: InvoiceDeletionRule | null = null;

  /**
   * Reads what the invoices a billing run's batch is about to issue copy (`given`: each one's CoworkerId,
   * BusinessId and CurrencyId) into the batch's `lookedUp`, where valuesToWrite takes them: the customers'
   * bill-to details by one statement, each currency code, business name and country name once. The batch does
   * it before it takes its numbers, so the business's counter row is not held while these are read.
   */
  async lookUpBatch(tx: Tx, given: readonly Readonly<Record<string, unknown>>[], lookedUp: Map<string, Promise<unknown>>): Promise<void> {
    const lookup = this.lookupIn(tx, lookedUp);
    const customerIds = [...new Set(given.map((values) => Number(values.CoworkerId)))];
    const found = await this.invoicesRepository.billedCustomers(customerIds, tx);
    for (const id of customerIds) lookedUp.set(billedKey(id), Promise.resolve(found.get(id) ?? null));
    for (const values of given) {
      await lookup(Currency, values.CurrencyId, 'Code');
      await lookup(Business, values.BusinessId, 'Name');
      await lookup(Country, found.get(Number(values.CoworkerId))?.CountryId, 'Name');
    }
  }

  /** Looks a column of a record up, each once where `lookedUp` keeps what a batch read (valuesToWrite). */
  private lookupIn(tx: Tx, lookedUp: Map<string, Promise<unknown>> | undefined): Lookup {
    return (entity, id, column) => {
      const key = `${entity.name} ${String(id)} ${column}`;
      const found = lookedUp?.get(key) ?? this.issuance.lookup(entity, id, column, tx);
      lookedUp?.set(key, found);
      return found;
    };
  }

  /** The values to write: the body's, with the snapshots and the number the rules above add. */
  async beforeSave({ tx, values: given, existing }: SaveContext<CoworkerInvoiceDto>): Promise<SaveDecision> {
    return { values: await this.valuesToWrite(tx, given, existing) };
  }

  /** The invoice's own ledger entry (INV) is written with it, and follows its customer and total. */
  async afterSave(id: number, { tx, actor, existing }: SaveContext<CoworkerInvoiceDto>): Promise<void> {
    await this.books.followLedger(id, tx, actor, existing === null);
  }

  /**
   * Settlement's rule for deleting an invoice (docs/settlement.md "Deleting"), registered by it: a record
   * DELETE obeys exactly what COWORKER_INVOICE_DELETE obeys, and releases what it billed the same way.
   */
  obeyDeletionRule(rule: InvoiceDeletionRule): void {
    this.deletionRule = rule;
  }

  async beforeDelete(record: WireRecord, context: DeleteContext): Promise<void> {
    if (!this.deletionRule)
      throw new Error('No deletion rule of customer invoices is registered (InvoiceCommands of settlement registers it)');
    await this.deletionRule(Number(record.Id), context);
  }

  /**
   * The values of an invoice as the rules above make them (also for invoices a billing run issues, which
   * may bring the number it took for it: `reservedNumber`, one of InvoiceIssuanceRepository.nextNumbers;
   * and `lookedUp`, the currency codes and business names its batch read already, kept by id).
   */
  async valuesToWrite(
    tx: Tx,
    given: Readonly<Record<string, unknown>>,
    existing: WireRecord | null,
    reservedNumber?: string,
    lookedUp?: Map<string, Promise<unknown>>,
  ): Promise<Record<string, unknown>> {
    const lookup = this.lookupIn(tx, lookedUp);
    refuseBusinessChange(existing, given);
    const values = { ...given };
    // A partial update names only what it changes: the business is the stored one when absent (docs/api.md §1.2).
    if (repointed(existing, given, 'CoworkerId'))
      Object.assign(values, await this.billTo(tx, { BusinessId: existing?.BusinessId, ...given }, lookup, lookedUp));
    if (repointed(existing, given, 'CurrencyId')) values.CurrencyCode = await lookup(Currency, given.CurrencyId, 'Code');
    if (existing === null) {
      values.BusinessName = await lookup(Business, given.BusinessId, 'Name');
      // The number last, just before the insert: the counter row stays locked until COMMIT, and
      // everything read before it is time other invoices of the business do not wait for (docs/billing.md).
      values.InvoiceNumber = reservedNumber ?? (await this.issuance.nextNumber('CoworkerInvoice', given.BusinessId as number, tx));
    }
    // A new invoice is due in full; the settlement of payments keeps DueAmount from then on.
    if (existing === null) values.DueAmount = fromUnits(toUnits(values.TotalAmount ?? 0));
    if (existing !== null) await this.books.refuseSettlementChanges(tx, values, existing);
    // An invoice with lines (a run's, a credit note) has their totals: read-only (docs/api.md §9.1, §10.1).
    if (
      existing !== null &&
      (values.TotalAmount !== undefined || values.TaxAmount !== undefined) &&
      (await this.books.hasLines(Number(existing.Id), tx))
    ) {
      delete values.TotalAmount;
      delete values.TaxAmount;
    }
    refuseTaxAboveTotal(values, existing);
    // Only a new total moves what is due: a record PUT back as read (its total unchanged) keeps its settlement.
    if (existing !== null && values.TotalAmount !== undefined && toUnits(values.TotalAmount) !== toUnits(existing.TotalAmount))
      Object.assign(values, await this.books.settledWithTotal(Number(existing.Id), values.TotalAmount as number | null, tx));
    return values;
  }

  /** The bill-to details of the invoice's customer, who must be a customer of its business. */
  private async billTo(
    tx: Tx,
    values: Readonly<Record<string, unknown>>,
    lookup: Lookup,
    lookedUp?: Map<string, Promise<unknown>>,
  ): Promise<Record<string, unknown>> {
    const customerId = Number(values.CoworkerId);
    const batchRead = lookedUp?.get(billedKey(customerId)) as Promise<BilledCustomer | null> | undefined;
    const customer = await (batchRead ?? this.invoicesRepository.billedCustomer(customerId, tx));
    // The machinery checked the customer exists; a delete that committed since is still a 400.
    if (!customer) throw RecordValidationException.field('CoworkerId', `Coworker ${values.CoworkerId} does not exist`, values.CoworkerId);
    if (customer.BusinessId !== Number(values.BusinessId)) {
      throw RecordValidationException.field(
        'CoworkerId',
        `Coworker ${values.CoworkerId} is not a customer of Business ${values.BusinessId}.`,
        values.CoworkerId,
      );
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
      BillToCountryName: await lookup(Country, customer.CountryId, 'Name'),
    };
  }
}

/** A look-up of a column of a currency, business or country (InvoiceIssuanceRepository.lookup). */
type Lookup = (entity: typeof Currency | typeof Business | typeof Country, id: unknown, column: string) => Promise<unknown>;

/** The key of a customer's bill-to details among a batch's look-ups (lookUpBatch). */
const billedKey = (customerId: number) => `Coworker ${customerId} BillTo`;

/** What settlement runs before an invoice's record DELETE: refuses it or releases what it billed (throws to refuse). */
export type InvoiceDeletionRule = (invoiceId: number, context: DeleteContext) => Promise<void>;

/** TaxAmount never exceeds TotalAmount in absolute value (docs/api.md §10.1), checked when either is written anew. */
function refuseTaxAboveTotal(values: Readonly<Record<string, unknown>>, existing: WireRecord | null): void {
  if (values.TotalAmount === undefined && values.TaxAmount === undefined) return;
  const current = (field: string) => toUnits(values[field] !== undefined ? values[field] : existing?.[field]);
  const unchanged = (field: string) => values[field] === undefined || toUnits(values[field]) === toUnits(existing?.[field]);
  if (existing && unchanged('TotalAmount') && unchanged('TaxAmount')) return; // what it holds is fine
  const magnitude = (value: bigint) => (value < 0n ? -value : value);
  if (magnitude(current('TaxAmount')) > magnitude(current('TotalAmount'))) {
    throw RecordValidationException.field(
      'TaxAmount',
      `TaxAmount (${fromUnits(current('TaxAmount'))}) cannot exceed TotalAmount (${fromUnits(current('TotalAmount'))}) in absolute value.`,
      values.TaxAmount ?? null,
    );
  }
}
