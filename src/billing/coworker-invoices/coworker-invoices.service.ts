import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '../../platform/principal.js';
import { InjectRecords } from '../../records/record.module.js';
import type { RecordService } from '../../records/record.service.js';
import { formatDateTime } from '../../records/wire-values.js';
import { coworkerInvoices } from './coworker-invoices.definition.js';
import { CoworkerInvoicesRules, type InvoiceDeletionRule } from './coworker-invoices.rules.js';
import { InvoiceBooks } from './invoice-books.js';
import { InvoiceIssuanceRepository } from '../invoice-issuance.repository.js';
import type { RecordChangeEntry } from '../../records/change-log/change-log.service.js';
import type { Tx } from '../../persistence/tx.js';

/**
 * Customer invoices written besides the API's own writes: settlement (docs/api.md §10.1) and the
 * invoices billing runs issue (docs/billing.md), under the same rules (CoworkerInvoicesRules).
 */
@Injectable()
export class CoworkerInvoicesService {
  @InjectRecords(coworkerInvoices) private readonly records: RecordService;
  @Inject(CoworkerInvoicesRules) private readonly rules: CoworkerInvoicesRules;
  @Inject(InvoiceBooks) private readonly books: InvoiceBooks;
  @Inject(InvoiceIssuanceRepository) private readonly issuance: InvoiceIssuanceRepository;

  /** The numbers of `count` invoices of the business about to be issued in this transaction, in order, from one move of its counter. */
  reserveNumbers(tx: Tx, businessId: number, count: number): Promise<string[]> {
    return this.issuance.nextNumbers('CoworkerInvoice', businessId, count, tx);
  }

  /**
   * Writes an invoice's settled fields (docs/api.md §10.1, InvoiceSettlement) when any of them changed,
   * raising its version, with its change-log entry (and so its webhooks), in the caller's transaction.
   */
  async applySettlement(id: number, fields: Readonly<Record<string, unknown>>, tx: Tx, actor: Principal | undefined): Promise<void> {
    const before = await this.records.get(id, undefined, tx);
    if (Object.entries(fields).every(([field, value]) => sameWireValue(before[field], value))) return;
    await this.records.updateRecorded(tx, actor, id, fields, { before });
  }

  /**
   * Issues an invoice inside a running transaction (a billing run, docs/billing.md): numbered, captured
   * and defaulted as one created through the API. Its change-log entry (and webhook events 16 and 15)
   * is the caller's to record once its lines are written (`recordIssued`). `reservedNumber`: its number,
   * when the caller took it already (a run's batch takes its invoices' numbers at once); `lookedUp`: the
   * currency codes and business names the caller's batch read already (CoworkerInvoicesRules.valuesToWrite).
   */
  async issue(
    tx: Tx,
    actor: Principal | undefined,
    given: Record<string, unknown>,
    reservedNumber?: string,
    lookedUp?: Map<string, Promise<unknown>>,
  ): Promise<{ id: number; written: Record<string, unknown> }> {
    const values = await this.rules.valuesToWrite(tx, given, null, reservedNumber, lookedUp);
    return this.records.insertStamped(tx, actor, values);
  }

  /**
   * Issues the invoices of a billing run's batch, each as `issue` issues one (with its number of `numbers`, in
   * order), by multi-row INSERTs: their Ids and values written. Their history and ledger entries: `issuedChanges`.
   */
  async issueMany(
    tx: Tx,
    actor: Principal | undefined,
    given: readonly Record<string, unknown>[],
    numbers: readonly string[],
    lookedUp: Map<string, Promise<unknown>>,
  ): Promise<{ ids: number[]; written: Record<string, unknown>[] }> {
    const values: Record<string, unknown>[] = [];
    for (const [index, fields] of given.entries()) values.push(await this.rules.valuesToWrite(tx, fields, null, numbers[index], lookedUp));
    return this.records.insertStampedMany(tx, actor, values);
  }

  /** Reads what a batch's invoices copy from other records, once, for `issueMany` (CoworkerInvoicesRules.lookUpBatch). */
  lookUpBatch(tx: Tx, given: readonly Readonly<Record<string, unknown>>[], lookedUp: Map<string, Promise<unknown>>): Promise<void> {
    return this.rules.lookUpBatch(tx, given, lookedUp);
  }

  /**
   * What `recordIssued` records of each invoice `issueMany` issued, written for the batch to record with its
   * others: per invoice, its own change and its ledger entry's (written here), in that order.
   */
  async issuedChanges(
    tx: Tx,
    actor: Principal | undefined,
    ids: readonly number[],
    written: readonly Record<string, unknown>[],
  ): Promise<RecordChangeEntry[][]> {
    const ledger = await this.books.followLedgerOfIssued(ids, tx, actor);
    const own = await this.records.createdMany(tx, actor, ids, written);
    return ids.map((id, index) => {
      const entry = ledger.get(id);
      return [own[index], ...(entry ? [entry] : [])];
    });
  }

  /**
   * The change-log entry of an issued invoice (its history, and the webhook events it fires), and its own
   * ledger entry (INV, or CRN for a credit note: docs/api.md §10.1), once its totals are final.
   */
  async recordIssued(tx: Tx, actor: Principal | undefined, id: number, written: Record<string, unknown>): Promise<void> {
    await this.records.recordCreated(tx, actor, id, written);
    await this.books.followLedger(id, tx, actor, true);
  }

  /** Settlement's rule for deleting an invoice, which a record DELETE obeys (CoworkerInvoicesRules). */
  obeyDeletionRule(rule: InvoiceDeletionRule): void {
    this.rules.obeyDeletionRule(rule);
  }
}

function sameWireValue(stored: unknown, value: unknown): boolean {
  if (value instanceof Date) return stored === formatDateTime(value);
  if (typeof value === 'string' && typeof stored === 'number') return Number(value) === stored;
  return (stored ?? null) === (value ?? null);
}
