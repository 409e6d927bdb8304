import { Injectable } from '@nestjs/common';
import { ChangeLog, type RecordChangeEntry } from '../../records/change-log/change-log.service.js';
import type { Principal } from '../../platform/principal.js';
import { CoworkerInvoiceLinesService } from '../coworker-invoice-lines/coworker-invoice-lines.service.js';
import { CoworkerInvoicesService } from '../coworker-invoices/coworker-invoices.service.js';
import type { BilledCustomer, ClaimRow } from '../due-items/due-items.js';
import { atMidnight, utcDate } from '../due-items/periods.js';
import { billedAnswer, invoiceFields, lineFields, type BilledInvoice, type PlannedInvoice } from './invoice-pricing.js';
import type { Tx } from '../../persistence/tx.js';

/** What a batch's customers share while their invoices are written (BillingRunner.billBatch). */
export interface BatchWrites {
  /** The batch's invoice numbers, in its customers' order: each invoice takes the first left. */
  numbers: string[];
  /** The claims of its items, made by set once every invoice is written (set-claims.ts). */
  claims: ClaimRow[];
  /** Currency codes, business names, countries and bill-to details its invoices copy, each read once (CoworkerInvoicesRules.valuesToWrite). */
  lookedUp: Map<string, Promise<unknown>>;
  /** Written all at once (BatchIssuance): the history of its invoices, their lines and ledger entries, then of its claims, in that order. */
  history?: RecordChangeEntry[];
  /** Lets the request thread serve others between the steps of a batch's writes (BillingRunner.pause). */
  pause?: () => Promise<void>;
}

/**
 * Writes the planned invoices of a batch of customers of one business all at once (docs/billing.md "Exactly
 * once"): the customers' bill-to details by one read, the invoices by one multi-row INSERT, all their lines by
 * one more, their ledger entries by one read of the invoices and one INSERT, and the history of all of them by
 * one INSERT into the change log with its claims' (`recordHistory`), the entries in the order one customer
 * after another writes them (each customer's lines, its invoice, its ledger entry; then the claims), so ids,
 * numbers, history and webhook deliveries come out as they do customer by customer. Only for a batch that
 * `fits`; the claims are gathered for the batch to make.
 */
@Injectable()
export class BatchIssuance {
  constructor(
    private readonly invoices: CoworkerInvoicesService,
    private readonly lines: CoworkerInvoiceLinesService,
    private readonly changeLog: ChangeLog,
  ) {}

  /**
   * Whether the batch's invoices can be written at once with the outcome of writing them customer by
   * customer: at most one invoice a customer (a customer's first invoice fires its own webhook action, which
   * counts the customer's invoices as each is recorded), no universal credit spent (its use history is
   * written with each line) and every item claimed as data (claimRow; a claim of its own writes its history
   * at once).
   */
  fits(plans: readonly PlannedInvoice[][]): boolean {
    return plans.every(
      (planned) =>
        planned.length <= 1 &&
        planned.every(
          (invoice) => invoice.lines.every((line) => !line.spends.length) && invoice.items.every(({ item }) => item.claimRow !== undefined),
        ),
    );
  }

  /**
   * Reads what the batch's planned invoices copy from other records (bill-to details, currency codes, business
   * and country names) into `batch.lookedUp`, before the batch takes its numbers (the counter row then stays
   * locked only while the batch writes).
   */
  async lookUp(tx: Tx, customers: readonly BilledCustomer[], plans: readonly PlannedInvoice[][], batch: BatchWrites): Promise<void> {
    const given = customers.flatMap((customer, index) =>
      plans[index].map((invoice) => ({ CoworkerId: customer.id, BusinessId: customer.businessId, CurrencyId: invoice.currencyId })),
    );
    if (given.length) await this.invoices.lookUpBatch(tx, given, batch.lookedUp);
  }

  /** Writes the batch's planned invoices (`plans`, in its customers' order): the invoices made, per customer. */
  async write(
    tx: Tx,
    customers: readonly BilledCustomer[],
    plans: readonly PlannedInvoice[][],
    actor: Principal | undefined,
    batch: BatchWrites,
  ): Promise<BilledInvoice[][]> {
    const issued = customers.flatMap((customer, index) => plans[index].map((invoice) => ({ customer, invoice, index })));
    const made: BilledInvoice[][] = customers.map(() => []);
    if (!issued.length) return made;
    const businessId = customers[0].businessId;
    const today = atMidnight(utcDate(new Date()));
    const { ids, written } = await this.invoices.issueMany(
      tx,
      actor,
      issued.map(({ customer, invoice }) => invoiceFields(customer, invoice, today)),
      batch.numbers.splice(0, issued.length),
      batch.lookedUp,
    );
    await batch.pause?.();
    const lineChanges = await this.lines.insertPending(
      tx,
      actor,
      issued.flatMap(({ invoice }, k) => invoice.lines.map((line) => lineFields(line, ids[k]))),
      businessId,
    );
    await batch.pause?.();
    const issuedChanges = await this.invoices.issuedChanges(tx, actor, ids, written);
    const changes: RecordChangeEntry[] = [];
    let nextLine = 0;
    for (const [k, { customer, invoice, index }] of issued.entries()) {
      const id = ids[k];
      const number = String(written[k].InvoiceNumber);
      changes.push(...lineChanges.slice(nextLine, (nextLine += invoice.lines.length)), ...issuedChanges[k]);
      for (const [item, { item: due, lines }] of invoice.items.entries()) {
        const context = { tx, actor, invoice: { id, number, on: new Date() }, businessId, credited: invoice.credited[item] };
        batch.claims.push(due.claimRow!(context, lines));
      }
      made[index].push({ ...billedAnswer(customer, invoice), Id: id, InvoiceNumber: number });
    }
    (batch.history ??= []).push(...changes);
    return made;
  }

  /** Records the batch's history (`batch.history`) by multi-row INSERTs into the change log, in order. */
  async recordHistory(tx: Tx, batch: BatchWrites): Promise<void> {
    if (batch.history?.length) await this.changeLog.writeMany(tx, batch.history);
  }
}
