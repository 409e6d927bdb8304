import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '../../platform/principal.js';
import { RecordTypes } from '../../records/record-types.js';
import type { RecordService } from '../../records/record.service.js';
import type { RecordChangeEntry } from '../../records/change-log/change-log.service.js';
import { coworkerLedgerEntries } from '../coworker-ledger-entries/coworker-ledger-entries.definition.js';
import { CREDIT_NOTE_CODE, INVOICE_CODE, VOID_CODE } from '../coworker-ledger-entries/service-entries.js';
import { unitsText, type Units } from '../../kernel/money.js';
import { SettlementRepository, type LedgerInvoice, type OwnEntry } from './settlement.repository.js';
import type { Tx } from '../../persistence/tx.js';

/** ePaymentProvider 0 None: the service's own entries move no money. */
const NONE = 0;

/** A signed amount as the entry's Debit (≥ 0) and Credit (≥ 0). */
const sides = (signed: Units) => ({ Debit: signed > 0n ? signed : 0n, Credit: signed < 0n ? -signed : 0n });

/**
 * The service's own ledger entries of invoices (docs/settlement.md "Invoices are ledger entries too",
 * docs/api.md §10.1): an issued invoice debits its customer with its TotalAmount (INV), a credit note
 * credits it (CRN), a void credits back what the invoice debited (VOID); so a customer's Balance is what
 * it owes. Written in the transaction that issues, changes or voids the invoice, each with its history.
 */
@Injectable()
export class InvoiceLedger {
  @Inject(RecordTypes) private readonly types: RecordTypes;
  @Inject(SettlementRepository) private readonly repository: SettlementRepository;

  private get entries(): RecordService {
    return this.types.records(coworkerLedgerEntries);
  }

  /**
   * Writes the INV (or, for a credit note, CRN) entry of an invoice, or brings it in line with the
   * invoice as stored now: its customer, number and TotalAmount (which may change while nothing is
   * paid or credited), dated at its CreatedOn. `issued`: the invoice was issued in this transaction.
   */
  async follow(invoiceId: number, tx: Tx, actor: Principal | undefined, issued = false): Promise<void> {
    const invoice = await this.repository.invoiceForLedger(invoiceId, tx);
    if (!invoice) return;
    const code = invoice.CreditNote ? CREDIT_NOTE_CODE : INVOICE_CODE;
    const description = invoice.CreditNote ? `Credit note ${invoice.InvoiceNumber}` : `Invoice ${invoice.InvoiceNumber}`;
    // An invoice issued in this transaction has no entry yet: a billing run's invoices skip the look.
    const own = issued ? undefined : (await this.repository.ownEntriesOf(invoiceId, tx)).find((entry) => entry.Code === code);
    await this.keep(own, invoice, code, description, sides(invoice.TotalAmount), tx, actor);
  }

  /**
   * The INV (or CRN) entries of invoices a billing run's batch issued (`follow` with `issued`, for many), by one
   * read and multi-row INSERTs, in the invoices' order: each entry's change by its invoice's Id, for the batch to
   * record with its others.
   */
  async issuedMany(invoiceIds: readonly number[], tx: Tx, actor: Principal | undefined): Promise<Map<number, RecordChangeEntry>> {
    const read = new Map((await this.repository.invoicesForLedger(invoiceIds, tx)).map((invoice) => [invoice.Id, invoice]));
    const invoices = invoiceIds.flatMap((id) => read.get(id) ?? []);
    const changes = new Map<number, RecordChangeEntry>();
    if (!invoices.length) return changes;
    const { ids, written } = await this.entries.insertStampedMany(
      tx,
      actor,
      invoices.map((invoice) => this.ownEntry(invoice)),
      new Date(),
    );
    for (const [index, change] of (await this.entries.createdMany(tx, actor, ids, written)).entries())
      changes.set(invoices[index].Id, change);
    return changes;
  }

  /** The values of an invoice's own entry: INV, or CRN for a credit note. */
  private ownEntry(invoice: LedgerInvoice): Record<string, unknown> {
    const code = invoice.CreditNote ? CREDIT_NOTE_CODE : INVOICE_CODE;
    const description = invoice.CreditNote ? `Credit note ${invoice.InvoiceNumber}` : `Invoice ${invoice.InvoiceNumber}`;
    return entryValues(invoice, code, description, sides(invoice.TotalAmount));
  }

  /** Writes the VOID entry of an invoice being voided: it credits what its INV entry debits. */
  async voided(invoiceId: number, tx: Tx, actor: Principal | undefined): Promise<void> {
    const invoice = await this.repository.invoiceForLedger(invoiceId, tx);
    if (!invoice) return;
    await this.keep(
      undefined,
      invoice,
      VOID_CODE,
      `Void of invoice ${invoice.InvoiceNumber}`,
      sides(-invoice.TotalAmount),
      tx,
      actor,
      new Date(),
    );
  }

  /** Removes an invoice's own entries with it (COWORKER_INVOICE_DELETE, a record DELETE). */
  async removeWith(invoiceId: number, tx: Tx, actor: Principal | undefined): Promise<void> {
    for (const entry of await this.repository.ownEntriesOf(invoiceId, tx)) {
      await this.entries.removeRecorded(tx, actor, entry.Id, () => this.repository.deleteEntry(entry.Id, tx));
    }
  }

  private async keep(
    own: OwnEntry | undefined,
    invoice: LedgerInvoice,
    code: string,
    description: string,
    amounts: { Debit: Units; Credit: Units },
    tx: Tx,
    actor: Principal | undefined,
    on?: Date,
  ): Promise<void> {
    const now = new Date();
    const values = entryValues(invoice, code, description, amounts, on);
    if (!own) {
      await this.entries.createRecorded(tx, actor, values, { now });
      return;
    }
    const same =
      own.CoworkerId === invoice.CoworkerId &&
      own.Description === description &&
      own.Debit === amounts.Debit &&
      own.Credit === amounts.Credit;
    if (same) return;
    const { CoworkerId, Description, Debit, Credit } = values;
    await this.entries.updateRecorded(tx, actor, own.Id, { CoworkerId, Description, Debit, Credit }, { now });
  }
}

/** An entry of an invoice's own, dated at `on` (to the second) or else at the invoice's CreatedOn. */
function entryValues(invoice: LedgerInvoice, code: string, description: string, amounts: { Debit: Units; Credit: Units }, on?: Date) {
  return {
    BusinessId: invoice.BusinessId,
    CoworkerId: invoice.CoworkerId,
    CoworkerInvoiceId: invoice.Id,
    Code: code,
    Description: description,
    Debit: unitsText(amounts.Debit),
    Credit: unitsText(amounts.Credit),
    PaymentGatewayName: NONE,
    TransactionDate: on ? new Date(Math.floor(on.getTime() / 1000) * 1000) : new Date(invoice.CreatedOn),
  };
}
