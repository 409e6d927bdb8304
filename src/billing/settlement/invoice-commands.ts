import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { CommandResult, RecordCommands, type CommandContext } from '../../records/commands/record-commands.js';
import { refusal } from '../../records/errors.js';
import type { Principal } from '../../platform/principal.js';
import type { WireRecord } from '../../records/record-definition.js';
import { CoworkerInvoicesService } from '../coworker-invoices/coworker-invoices.service.js';
import { coworkerInvoices } from '../coworker-invoices/coworker-invoices.definition.js';
import { InjectRecords } from '../../records/record.module.js';
import type { RecordService } from '../../records/record.service.js';
import { CoworkerLedgerEntriesRules } from '../coworker-ledger-entries/coworker-ledger-entries.rules.js';
import { PaymentProvider } from '../coworker-ledger-entries/coworker-ledger-entry.entity.js';
import { creditNotesValue } from './invoice-command-answers.js';
import { InvoiceLedger } from './invoice-ledger.js';
import { InvoicePrints } from './invoice-prints.js';
import { InvoiceRelease } from './invoice-release.js';
import { InvoiceSettlement, settledFields, type Settled } from './invoice-settlement.js';
import { CENT, fromUnits, proportionCents, toUnits, unitsText, type Units } from '../../kernel/money.js';
import { SettlementRepository } from './settlement.repository.js';
import type { Tx } from '../../persistence/tx.js';

const EDIT = { entity: coworkerInvoices.name, action: 'Edit' } as const;
const PROVIDERS = new Set(Object.values(PaymentProvider));
const MANUAL = PaymentProvider.Manual;
const CREDIT = PaymentProvider.Credit;

const wholeSecond = (date: Date) => new Date(Math.floor(date.getTime() / 1000) * 1000);
const amountOf = (record: WireRecord, field: string) => toUnits(record[field]);
const number = (record: object) => `Invoice ${String((record as { InvoiceNumber?: unknown }).InvoiceNumber)}`;

/** An amount a command moves has at most 2 decimals (docs/api.md §9.1): 0.005 credits nobody can pay. */
const refuseBeyondCents = (amount: Units, invoiceId: number) => {
  if (amount % CENT !== 0n) throw refusal(`Amount${invoiceId}: ${fromUnits(amount)} has more than 2 decimal places.`);
};

/** What the invoice's credit notes credit, from its wire fields: Total − Paid − Due (0 for void invoices). */
const creditedOf = (record: WireRecord) =>
  record.Void === true ? 0n : amountOf(record, 'TotalAmount') - amountOf(record, 'PaidAmount') - amountOf(record, 'DueAmount');

// Why an invoice's state refuses each command (docs/api.md §10.2), from the record as GET shows it; every
// command checks again on the locked invoice (a refusal may only show up there, under concurrency).
const notPayable = (record: WireRecord): string | null => {
  if (record.CreditNote === true) return `${number(record)} is a credit note: it cannot be paid.`;
  if (record.Void === true) return `${number(record)} is void: it cannot be paid.`;
  return amountOf(record, 'DueAmount') > 0n ? null : `${number(record)} has nothing due.`;
};
const notVoidable = (record: WireRecord): string | null => {
  if (record.CreditNote === true) return `${number(record)} is a credit note: it cannot be voided.`;
  if (record.Void === true) return `${number(record)} is already void.`;
  if (amountOf(record, 'PaidAmount') > 0n) return `${number(record)} has payments: it cannot be voided.`;
  return creditedOf(record) > 0n ? `${number(record)} has credit notes: it cannot be voided.` : null;
};
const notCreditable = (record: WireRecord): string | null => {
  if (record.CreditNote === true) return `${number(record)} is a credit note: it cannot be credited.`;
  if (record.Void === true) return `${number(record)} is void: it cannot be credited.`;
  return amountOf(record, 'DueAmount') > 0n ? null : `${number(record)} has nothing due to credit.`;
};
const notRefundable = (record: WireRecord): string | null =>
  amountOf(record, 'PaidAmount') - amountOf(record, 'RefundedAmount') > 0n ? null : `${number(record)} has no payment left to refund.`;
const notDeletable = (record: WireRecord): string | null => {
  if (record.CreditNote === true) return `${number(record)} is a credit note: it cannot be deleted.`;
  if (record.Void === true) return `${number(record)} is void: it cannot be deleted.`;
  if (amountOf(record, 'PaidAmount') > 0n) return `${number(record)} has payments: it cannot be deleted.`;
  return creditedOf(record) > 0n ? `${number(record)} has credit notes: it cannot be deleted.` : null;
};

/**
 * The commands of customer invoices (docs/api.md §10.2, docs/settlement.md), on the commands protocol
 * (docs/billing.md). Each runs for all its ids in one transaction, all or nothing; each invoice is
 * locked (in Id order) and its state checked again under the lock before anything is written, so
 * commands and payments racing on one invoice end as some serial order of them would.
 */
@Injectable()
export class InvoiceCommands implements OnModuleInit {
  @Inject(RecordCommands) private readonly commands: RecordCommands;
  @Inject(InvoiceSettlement) private readonly settlement: InvoiceSettlement;
  @Inject(SettlementRepository) private readonly repository: SettlementRepository;
  @Inject(CoworkerInvoicesService) private readonly invoices: CoworkerInvoicesService;
  @InjectRecords(coworkerInvoices) private readonly invoiceRecords: RecordService;
  @Inject(CoworkerLedgerEntriesRules) private readonly entries: CoworkerLedgerEntriesRules;
  @Inject(InvoicePrints) private readonly prints: InvoicePrints;
  @Inject(InvoiceRelease) private readonly release: InvoiceRelease;
  @Inject(InvoiceLedger) private readonly ledger: InvoiceLedger;

  onModuleInit(): void {
    // One rule, two doors: a record DELETE of an invoice obeys what COWORKER_INVOICE_DELETE obeys.
    this.invoices.obeyDeletionRule((id, { tx, actor }) => this.prepareDeletion(id, tx, actor));
    this.commands.register(coworkerInvoices, {
      key: 'PAY_COWORKER_INVOICE_MANUAL',
      name: 'Mark as paid',
      permission: EDIT,
      order: 1,
      parameters: [
        { Name: 'Payment Method', Type: 'Integer' },
        { Name: 'TransactionDate', Type: 'DateTime' },
      ],
      refuses: notPayable,
      run: (context) => this.pay(context),
    });
    this.commands.register(coworkerInvoices, {
      key: 'VOID_INVOICE',
      name: 'Void invoice',
      permission: EDIT,
      order: 2,
      refuses: notVoidable,
      run: (context) => this.void(context),
    });
    this.commands.register(coworkerInvoices, {
      key: 'COWORKER_INVOICE_CANCEL',
      name: 'Issue credit note',
      permission: EDIT,
      order: 3,
      parameters: [
        { Name: 'Amount', Type: 'Decimal', perId: true },
        { Name: 'Preview', Type: 'Boolean' },
        { Name: 'DoNotApplyCreditAutomatically', Type: 'Boolean' },
      ],
      refuses: notCreditable,
      value: creditNotesValue,
      run: (context) => this.credit(context),
    });
    this.commands.register(coworkerInvoices, {
      key: 'COWORKER_INVOICE_REFUND',
      name: 'Refund',
      permission: EDIT,
      order: 4,
      parameters: [
        { Name: 'Amount', Type: 'Decimal', perId: true },
        { Name: 'ePaymentProvider0', Type: 'Integer' },
      ],
      refuses: notRefundable,
      run: (context) => this.refund(context),
    });
    this.commands.register(coworkerInvoices, {
      key: 'COWORKER_INVOICE_DELETE',
      name: 'Delete invoice',
      permission: EDIT,
      order: 5,
      refuses: notDeletable,
      run: (context) => this.delete(context),
    });
    this.commands.register(coworkerInvoices, {
      key: 'COWORKER_INVOICE_PRINT',
      name: 'Print',
      permission: EDIT,
      order: 6,
      // The PDFs are made outside any transaction: nothing waits for them but this request.
      transaction: 'own',
      bulk: true,
      run: async ({ records, actor, write }) =>
        new CommandResult(null, await this.prints.print(records, actor?.userId ?? null, () => write?.expired ?? false)),
    });
  }

  /** The invoices of the run locked in Id order (no two runs lock the same two in opposite orders), each re-checked. */
  private async locked(context: CommandContext, refuses: (record: WireRecord) => string | null): Promise<Settled[]> {
    const tx = context.tx!;
    const all: Settled[] = [];
    for (const id of [...context.ids].sort((a, b) => a - b)) {
      const settled = await this.settlement.lock(id, tx);
      if (!settled) throw refusal(`CoworkerInvoice ${id} does not exist or is not yours to change.`);
      const why = refuses(stateOf(settled));
      if (why) throw refusal(why);
      all.push(settled);
    }
    return all;
  }

  private async pay(context: CommandContext): Promise<null> {
    const method = (context.parameters['Payment Method'] as number | undefined) ?? MANUAL;
    if (!PROVIDERS.has(method)) throw refusal(`Payment Method: ${method} is not an ePaymentProvider.`);
    const on = wholeSecond((context.parameters.TransactionDate as Date | undefined) ?? new Date());
    for (const settled of await this.locked(context, notPayable)) {
      const { invoice } = settled;
      await this.entries.writeEntry(
        {
          BusinessId: invoice.BusinessId,
          CoworkerId: invoice.CoworkerId,
          CoworkerInvoiceId: invoice.Id,
          Description: `Payment of invoice ${invoice.InvoiceNumber}`,
          Code: 'PAYM',
          Debit: 0,
          Credit: unitsText(settled.due),
          PaymentGatewayName: method,
          TransactionDate: on,
        },
        context.tx!,
        context.actor,
      );
      await this.settlement.recompute(invoice.Id, context.tx!, context.actor);
    }
    return null;
  }

  private async void(context: CommandContext): Promise<null> {
    for (const settled of await this.locked(context, notVoidable)) {
      const voided = { ...settled, invoice: { ...settled.invoice, Void: true }, due: 0n };
      await this.invoices.applySettlement(settled.invoice.Id, { Void: true, ...settledFields(voided) }, context.tx!, context.actor);
      await this.ledger.voided(settled.invoice.Id, context.tx!, context.actor);
    }
    return null;
  }

  private async credit(context: CommandContext): Promise<unknown> {
    const amounts = (context.parameters.Amount as Map<number, number> | undefined) ?? new Map<number, number>();
    const preview = context.parameters.Preview === true;
    const notes: Array<Record<string, unknown>> = [];
    for (const settled of await this.locked(context, notCreditable)) {
      const { invoice } = settled;
      const given = amounts.get(invoice.Id);
      const amount = given === undefined ? settled.due : toUnits(given);
      if (amount <= 0n) throw refusal(`Amount${invoice.Id}: the amount to credit must be above 0.`);
      refuseBeyondCents(amount, invoice.Id);
      if (amount > settled.due)
        throw refusal(`Amount${invoice.Id}: ${fromUnits(amount)} is over what is due on ${number(invoice)} (${fromUnits(settled.due)}).`);
      const tax = proportionCents(amount, invoice.TaxAmount, invoice.TotalAmount);
      if (preview) {
        notes.push({
          CoworkerInvoiceId: invoice.Id,
          CoworkerId: invoice.CoworkerId,
          CurrencyId: invoice.CurrencyId,
          TotalAmount: fromUnits(-amount),
          TaxAmount: fromUnits(-tax),
          CreditNote: true,
          OriginalInvoiceGuid: invoice.UniqueId,
        });
        continue;
      }
      notes.push({ Id: await this.issueCreditNote(settled, amount, tax, context.tx!, context.actor) });
      await this.settlement.recompute(invoice.Id, context.tx!, context.actor);
    }
    return notes;
  }

  /**
   * A credit note of `amount` (tax `tax` of it) against the locked invoice: numbered in the business's
   * series, for the original's customer, currency and bill-to, with one line carrying both amounts.
   */
  private async issueCreditNote(settled: Settled, amount: Units, tax: Units, tx: Tx, actor: Principal | undefined): Promise<number> {
    const { invoice } = settled;
    const original = await this.invoiceRecords.get(invoice.Id, undefined, tx);
    const billTo = Object.fromEntries(
      Object.entries(original).filter(([field]) => field.startsWith('BillTo') || field === 'CoworkerFullName'),
    );
    const net = amount - tax;
    const description = `Credit note for invoice ${invoice.InvoiceNumber}`;
    const { id, written } = await this.invoices.issue(tx, actor, {
      CoworkerId: invoice.CoworkerId,
      BusinessId: invoice.BusinessId,
      CurrencyId: invoice.CurrencyId,
      Description: description,
      TotalAmount: unitsText(-amount),
      TaxAmount: unitsText(-tax),
      CreditNote: true,
      OriginalInvoiceGuid: invoice.UniqueId,
      InvoiceFromDate: original.InvoiceFromDate ? new Date(String(original.InvoiceFromDate)) : null,
      InvoiceToDate: original.InvoiceToDate ? new Date(String(original.InvoiceToDate)) : null,
    });
    // The original's bill-to as it was billed (issue() captured the customer's details of today), nothing due.
    const settledNote = { ...billTo, PaidAmount: unitsText(0n), DueAmount: unitsText(0n), Paid: false, PaidOn: null };
    await this.repository.overwriteInvoice(id, settledNote, tx);
    const rate = await this.repository.singleTaxRate(invoice.Id, tx);
    await this.repository.insertLine(
      {
        CoworkerInvoiceId: id,
        Description: `Credit of invoice ${invoice.InvoiceNumber}`,
        Quantity: 1,
        UnitPrice: unitsText(-net),
        SubTotal: unitsText(-net),
        TaxRateId: rate?.id ?? null,
        TaxRate: rate ? rate.rate : net === 0n ? '0' : (Number((tax * 1_000_000n) / net) / 10_000).toFixed(4),
        TaxAmount: unitsText(-tax),
        TotalAmount: unitsText(-amount),
        PeriodFrom: null,
        PeriodTo: null,
        Position: 1,
      },
      tx,
      actor?.email ?? null,
    );
    await this.invoices.recordIssued(tx, actor, id, { ...written, ...settledNote });
    return id;
  }

  private async refund(context: CommandContext): Promise<null> {
    const amounts = (context.parameters.Amount as Map<number, number> | undefined) ?? new Map<number, number>();
    const method = (context.parameters.ePaymentProvider0 as number | undefined) ?? CREDIT;
    if (!PROVIDERS.has(method)) throw refusal(`ePaymentProvider0: ${method} is not an ePaymentProvider.`);
    const on = wholeSecond(new Date());
    for (const settled of await this.locked(context, notRefundable)) {
      const { invoice } = settled;
      const refundable = settled.paid - settled.refunded;
      const given = amounts.get(invoice.Id);
      const amount = given === undefined ? refundable : toUnits(given);
      if (amount <= 0n) throw refusal(`Amount${invoice.Id}: the amount to refund must be above 0.`);
      refuseBeyondCents(amount, invoice.Id);
      if (amount > refundable)
        throw refusal(
          `Amount${invoice.Id}: ${fromUnits(amount)} is over what was paid and not refunded on ${number(invoice)} (${fromUnits(refundable)}).`,
        );
      await this.entries.writeEntry(
        {
          BusinessId: invoice.BusinessId,
          CoworkerId: invoice.CoworkerId,
          CoworkerInvoiceId: invoice.Id,
          Description: `Refund of invoice ${invoice.InvoiceNumber}`,
          Code: 'REFUND',
          Debit: unitsText(amount),
          Credit: 0,
          PaymentGatewayName: method,
          TransactionDate: on,
        },
        context.tx!,
        context.actor,
      );
      await this.settlement.recompute(invoice.Id, context.tx!, context.actor);
    }
    return null;
  }

  /** Deletes each invoice as a record DELETE does, so both doors run the same rule (prepareDeletion). */
  private async delete(context: CommandContext): Promise<null> {
    for (const settled of await this.locked(context, notDeletable))
      await this.invoiceRecords.deleteWithin(context.tx!, settled.invoice.Id, context.actor);
    return null;
  }

  /**
   * What goes before an invoice's row is deleted, by the command or a record DELETE (docs/settlement.md
   * "Deleting"): refused (400) for an invoice with payments, refunds or credit notes, a void invoice or a
   * credit note; else what it billed is released, and its own ledger entry and its lines go with it.
   */
  private async prepareDeletion(id: number, tx: Tx, actor: Principal | undefined): Promise<void> {
    const settled = await this.settlement.lock(id, tx);
    if (!settled) return; // the machinery answers 404
    const why = notDeletable(stateOf(settled));
    if (why) throw refusal(why);
    if ((await this.repository.entriesOf(id, tx)).length)
      throw refusal(`${number(settled.invoice)} has ledger entries: it cannot be deleted.`);
    await this.release.release(id, settled.invoice.InvoiceNumber, tx, actor);
    await this.ledger.removeWith(id, tx, actor);
    await this.repository.deleteLines(id, tx);
  }
}

/** The locked invoice's state in the wire fields the refusals read. */
function stateOf(settled: Settled): WireRecord {
  const { invoice } = settled;
  return {
    InvoiceNumber: invoice.InvoiceNumber,
    Void: invoice.Void,
    CreditNote: invoice.CreditNote,
    TotalAmount: fromUnits(invoice.TotalAmount),
    PaidAmount: fromUnits(invoice.CreditNote ? 0n : settled.paid),
    DueAmount: fromUnits(settled.due),
    RefundedAmount: fromUnits(settled.refunded),
  };
}
