import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '../../platform/principal.js';
import { RecordValidationException } from '../../records/errors.js';
import type { WireRecord } from '../../records/record-definition.js';
import { fromUnits, sum, toUnits } from '../../kernel/money.js';
import { InvoiceBooks } from '../coworker-invoices/invoice-books.js';
import { INVOICE_CODE } from '../coworker-ledger-entries/service-entries.js';
import { InvoiceLedger } from './invoice-ledger.js';
import { settle, settledFields } from './settled.js';
import { SettlementRepository } from './settlement.repository.js';
import type { RecordChangeEntry } from '../../records/change-log/change-log.service.js';
import type { Tx } from '../../persistence/tx.js';

/** The amounts a settled invoice keeps (docs/api.md §10.1). */
const AMOUNTS = ['TotalAmount', 'TaxAmount', 'DiscountAmount'];

/**
 * An invoice's books as settlement keeps them (docs/settlement.md), for the invoice's own rules
 * (CoworkerInvoicesRules, a lower part, through InvoiceBooks): what its lines, payments and credit notes
 * fix on it, and its own ledger entry.
 */
@Injectable()
export class SettlementBooks implements InvoiceBooks {
  @Inject(SettlementRepository) private readonly repository: SettlementRepository;
  @Inject(InvoiceLedger) private readonly ledger: InvoiceLedger;

  hasLines(invoiceId: number, tx: Tx): Promise<boolean> {
    return this.repository.hasLines(invoiceId, tx);
  }

  followLedger(invoiceId: number, tx: Tx, actor: Principal | undefined, issued: boolean): Promise<void> {
    return this.ledger.follow(invoiceId, tx, actor, issued);
  }

  followLedgerOfIssued(invoiceIds: readonly number[], tx: Tx, actor: Principal | undefined): Promise<Map<number, RecordChangeEntry>> {
    return this.ledger.issuedMany(invoiceIds, tx, actor);
  }

  /**
   * What settlement fixes on an invoice (docs/settlement.md "What an invoice keeps", docs/api.md §10.1),
   * read under its lock, each a 400 naming the field: its customer and currency once it has entries of its
   * own other than its INV (payments, refunds, a void), credit notes or lines (X's payment never sits on
   * Y's invoice); the amounts of a void invoice, a credit note, and an invoice with payments or credit
   * notes. Values equal to the stored ones are fine: a record PUT back as read changes nothing.
   */
  async refuseSettlementChanges(tx: Tx, values: Readonly<Record<string, unknown>>, existing: WireRecord): Promise<void> {
    const id = Number(existing.Id);
    const invoice = await this.repository.lockInvoice(id, tx);
    if (!invoice) return;
    const changes = (field: string) => values[field] !== undefined && values[field] !== existing[field];
    const amountChanges = (field: string) => values[field] !== undefined && toUnits(values[field]) !== toUnits(existing[field]);
    if (!changes('CoworkerId') && !changes('CurrencyId') && !AMOUNTS.some(amountChanges)) return;
    const entries = await this.repository.entriesOf(id, tx);
    const creditNotes = invoice.CreditNote ? [] : await this.repository.creditNoteTotals(invoice.UniqueId, tx);
    const name = `Invoice ${invoice.InvoiceNumber}`;
    for (const field of ['CoworkerId', 'CurrencyId']) {
      if (!changes(field)) continue;
      const why = entries.length
        ? 'has payments or refunds'
        : (await this.repository.ownEntriesOf(id, tx)).some((entry) => entry.Code !== INVOICE_CODE)
          ? invoice.CreditNote
            ? 'is a credit note'
            : 'is void'
          : creditNotes.length
            ? 'has credit notes'
            : (await this.repository.hasLines(id, tx))
              ? 'has lines'
              : null;
      if (why) throw RecordValidationException.field(field, `${name} ${why}: its ${field} cannot change.`, values[field]);
    }
    const fixed = invoice.Void
      ? 'is void'
      : invoice.CreditNote
        ? 'is a credit note'
        : entries.some((entry) => entry.Credit > 0n)
          ? 'has payments'
          : creditNotes.length
            ? 'has credit notes'
            : null;
    if (!fixed) return;
    for (const field of AMOUNTS) {
      if (amountChanges(field))
        throw RecordValidationException.field(field, `${name} ${fixed}: its ${field} cannot change.`, values[field]);
    }
  }

  /**
   * The settled fields of an invoice whose TotalAmount an update changes (an invoice made by POST has no
   * lines): what is due follows, under the invoice's lock; a total below what was paid and credited is refused.
   */
  async settledWithTotal(id: number, total: number | null, tx: Tx): Promise<Record<string, unknown>> {
    const invoice = await this.repository.lockInvoice(id, tx);
    if (!invoice) return {};
    const changed = { ...invoice, TotalAmount: toUnits(total) };
    const credited = invoice.CreditNote ? 0n : -sum(await this.repository.creditNoteTotals(invoice.UniqueId, tx));
    const settled = settle(changed, await this.repository.entriesOf(id, tx), credited);
    if (settled.due < 0n && !invoice.CreditNote) {
      throw RecordValidationException.field(
        'TotalAmount',
        `TotalAmount cannot be below what was paid and credited on invoice ${invoice.InvoiceNumber} (${fromUnits(settled.paid + credited)}).`,
        total,
      );
    }
    return settledFields(settled);
  }
}
