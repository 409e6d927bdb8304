import { Inject, Injectable } from '@nestjs/common';
import { RecordValidationException } from '../../records/errors.js';
import type { Principal } from '../../platform/principal.js';
import { CoworkerInvoicesService } from '../coworker-invoices/coworker-invoices.service.js';
import { fromUnits, sum } from '../../kernel/money.js';
import type { EntryAgainstInvoice, EntrySettlement } from '../coworker-ledger-entries/entry-settlement.js';
import { settle, settledFields, type Settled } from './settled.js';
import { SettlementRepository } from './settlement.repository.js';
import type { Tx } from '../../persistence/tx.js';

export { settle, settledFields, type Settled } from './settled.js';

/**
 * The settled fields of customer invoices, derived inside the transaction of whatever changes them:
 * a ledger entry written, changed or deleted, a credit note, a refund, a void (docs/api.md §10.1).
 * Every path locks the invoice's row first (SettlementRepository.lockInvoice), checks the contract's
 * limits on what is stored now, and writes the derived fields before it commits; so parallel payments
 * of one invoice take turns and each lands or is refused, on any number of instances.
 */
@Injectable()
export class InvoiceSettlement implements EntrySettlement {
  @Inject(SettlementRepository) private readonly repository: SettlementRepository;
  @Inject(CoworkerInvoicesService) private readonly invoices: CoworkerInvoicesService;

  /** Locks the invoice and reads its settlement; null when it does not exist. `except`: an entry to leave out. */
  async lock(invoiceId: number, tx: Tx, except?: number): Promise<Settled | null> {
    const invoice = await this.repository.lockInvoice(invoiceId, tx);
    if (!invoice) return null;
    const entries = await this.repository.entriesOf(invoiceId, tx, except);
    const credited = invoice.CreditNote ? 0n : -sum(await this.repository.creditNoteTotals(invoice.UniqueId, tx));
    return settle(invoice, entries, credited);
  }

  /**
   * Checks a ledger entry against its invoice's limits, the invoice locked (400 naming the field):
   * a payment (Credit) of at most DueAmount, never of a void invoice or a credit note; a refund (Debit)
   * of at most what was paid and not yet refunded.
   */
  async checkEntry(entry: EntryAgainstInvoice, tx: Tx): Promise<Settled> {
    const settled = await this.lock(entry.invoiceId, tx, entry.id);
    if (!settled)
      throw RecordValidationException.field('CoworkerInvoiceId', `CoworkerInvoice ${entry.invoiceId} does not exist`, entry.invoiceId);
    const { invoice } = settled;
    const number = `Invoice ${invoice.InvoiceNumber}`;
    if (entry.credit > 0n) {
      if (invoice.CreditNote)
        throw RecordValidationException.field('Credit', `${number} is a credit note: it cannot be paid.`, fromUnits(entry.credit));
      if (invoice.Void) throw RecordValidationException.field('Credit', `${number} is void: it cannot be paid.`, fromUnits(entry.credit));
      if (entry.credit > settled.due) {
        throw RecordValidationException.field(
          'Credit',
          `A payment of ${fromUnits(entry.credit)} is over what is due on ${number} (${fromUnits(settled.due)}).`,
          fromUnits(entry.credit),
        );
      }
    }
    if (entry.debit > 0n) {
      const refundable = settled.paid - settled.refunded;
      if (entry.debit > refundable) {
        throw RecordValidationException.field(
          'Debit',
          `A refund of ${fromUnits(entry.debit)} is over what was paid and not refunded on ${number} (${fromUnits(refundable)}).`,
          fromUnits(entry.debit),
        );
      }
    }
    return settled;
  }

  /**
   * Checks that an invoice stays within its limits without the entry `except` (being changed away or
   * deleted): refunds never above payments.
   */
  async checkWithout(invoiceId: number, except: number, tx: Tx, field: string): Promise<void> {
    const settled = await this.lock(invoiceId, tx, except);
    if (settled && settled.refunded > settled.paid) {
      throw RecordValidationException.field(
        field,
        `Invoice ${settled.invoice.InvoiceNumber} has refunds of ${fromUnits(settled.refunded)}: its payments cannot go below that.`,
        null,
      );
    }
  }

  /**
   * Writes the invoice's settled fields as its stored entries and credit notes make them (the invoice
   * locked), with a change-log entry (and its webhooks) when they changed. `except`: an entry being
   * deleted in this transaction.
   */
  async recompute(invoiceId: number, tx: Tx, actor: Principal | undefined, except?: number): Promise<Settled | null> {
    const settled = await this.lock(invoiceId, tx, except);
    if (!settled) return null;
    await this.invoices.applySettlement(invoiceId, settledFields(settled), tx, actor);
    return settled;
  }
}
