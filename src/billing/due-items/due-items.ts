import { Injectable } from '@nestjs/common';
import type { LocalDate } from '@js-joda/core';
import type { Principal } from '../../platform/principal.js';
import type { RecordService } from '../../records/record.service.js';
import type { Units } from '../../kernel/money.js';
import type { SourceColumn } from './billed-items.js';
import type { CreditUse } from '../coworker-booking-credits/credit-rules.js';
import type { Tx } from '../../persistence/tx.js';

// The due-items collection of a billing run is a list of item sources (docs/billing.md, "Item
// sources"): contract periods, contract products, one-off sales, recurring sales, and whatever other
// modules register (booking charges). A run asks each source, in order, for the customer's items due
// up to `until`; it bills them on one invoice per currency (at most 1,000 lines each: the earliest), or none.

/** One line a due item puts on the invoice (its amounts are computed by the run: docs/billing.md). */
export interface DueLine {
  source: SourceColumn;
  /** The UniqueId of the record billed (contract, contract product, sale, booking). */
  sourceUniqueId: string;
  description: string;
  quantity: number;
  /** Rounded to cents already (pro-rated where it applies). */
  unitPrice: Units;
  taxRateId: number | null;
  periodFrom: LocalDate;
  periodTo: LocalDate;
  /** The currency of the tariff or product: invoices are made per currency. */
  currencyId: number;
  /**
   * What universal credits may pay this line as (docs/billing.md "Universal credits"): a product, a
   * pass or a charge. Absent: credits never pay it (contract periods and products, booking charges).
   */
  creditUse?: CreditUse;
  /** A line of a recurring subscription (contract periods, contract products, recurring sales): the invoice's SubscriptionAmount counts it. */
  subscription?: boolean;
}

/** The invoice an item is billed on, for the marks the item leaves on its record. */
export interface BillingInvoice {
  id: number;
  number: string;
  on: Date;
}

/** What a claim is given: the transaction, who runs it and the invoice made. */
export interface ClaimContext {
  tx: Tx;
  actor: Principal | undefined;
  invoice: BillingInvoice;
  /** The business of the customer billed: the business of every record its items claim. */
  businessId: number;
  /** What universal credits paid of the item's billed lines (docs/billing.md "Universal credits"). */
  credited: Units;
}

/**
 * A due item: its lines, and its claim. Its lines come in the order of their PeriodFrom and are made as
 * the run reads them (docs/billing.md "Bounds"): the run reads no more than the lines it bills, at most
 * the cap of one invoice, so a source never builds what will not be billed, whatever dates it holds.
 * The claim marks billed what went on the invoice, `billed` (the first lines read, at least one): a
 * record billed by periods only up to the end of the last of them, so the rest stays due for the next
 * run. It does so with ONE conditional write from the state it was read in (a sale's `Invoiced` 0 → 1;
 * a contract's `InvoicedPeriod` from the value read to the next) and returns whether that write
 * changed its row: false means another run billed it first, and the customer's whole transaction is
 * rolled back and tried again (docs/billing.md, "Exactly once"). It also records the record's change
 * in the change log (same transaction).
 */
export interface DueItem {
  /** The customer whose record it is (a source is asked for several customers at once: DueContext). */
  customerId: number;
  lines: Iterable<DueLine>;
  /**
   * Billed to its customer even when a team's paying member takes the customer's other items: a sale or
   * contract product of a product with InvoiceCoworker (docs/billing.md, "Team invoices").
   */
  invoiceDirectly?: boolean;
  claim(context: ClaimContext, billed: readonly DueLine[]): Promise<boolean>;
  /**
   * The same claim as data, so that a batch of customers claims its items of one kind by ONE statement
   * (claimRows, set-claims.ts; docs/billing.md "Exactly once"). Absent: the batch calls `claim`.
   */
  claimRow?(context: ClaimContext, billed: readonly DueLine[]): ClaimRow;
}

/** A claim as data: set `marks` on the record `id` only while its `unclaimed` columns hold what was read (null: IS NULL). */
export interface ClaimRow {
  entity: abstract new () => unknown;
  /** The record type, for the history of the change. */
  records: RecordService;
  id: number;
  marks: Record<string, unknown>;
  unclaimed: Record<string, unknown>;
}

/** `items` mapped one at a time as they are read (a lazy `map`). */
export function* mapLazily<T, U>(items: Iterable<T>, map: (item: T) => U): Generator<U, void, undefined> {
  for (const item of items) yield map(item);
}

/** The customer a run bills. */
export interface BilledCustomer {
  id: number;
  businessId: number;
}

/**
 * What a source is asked: the customers (one, or a batch a run bills in one transaction: docs/billing.md
 * "Exactly once"), up to which date, and the transaction to read in (none for a preview).
 */
export interface DueContext {
  customerIds: readonly number[];
  until: LocalDate;
  tx: Tx | undefined;
}

/** SQL `IN (?, …)` of as many parameters as `ids` has (a context's customers). */
export const inList = (ids: readonly unknown[]): string => `IN (${ids.map(() => '?').join(', ')})`;

/** Items of several customers, each customer's in the order they came. */
export function byCustomer(items: readonly DueItem[]): Map<number, DueItem[]> {
  const grouped = new Map<number, DueItem[]>();
  for (const item of items) {
    const own = grouped.get(item.customerId);
    if (own) own.push(item);
    else grouped.set(item.customerId, [item]);
  }
  return grouped;
}

/** A kind of thing that becomes due (docs/billing.md, 1. to 5.). */
export interface DueItemSource {
  /** For messages and docs. */
  name: string;
  /** Lower first on the invoice (contract periods 10, contract products 20, sales 30, recurring 40). */
  order: number;
  /** The items of every customer of the context, each customer's in invoice order (its query ordered by CoworkerId first). */
  collect(context: DueContext): Promise<DueItem[]>;
  /**
   * Gives back what a deleted invoice billed through this source (COWORKER_INVOICE_DELETE, docs/api.md
   * §10.2), in the delete's transaction, so the next run bills it again. The sources billing itself
   * defines are given back by the settlement's InvoiceRelease; a source a module adds (bookings)
   * gives back its own.
   */
  release?(context: ReleaseContext): Promise<void>;
}

/** A deleted invoice whose billed items a source gives back. */
export interface ReleaseContext {
  invoiceId: number;
  tx: Tx;
  actor: Principal | undefined;
}

/** The registered sources, in invoice order; modules add theirs in onModuleInit. */
@Injectable()
export class DueItemSources {
  private readonly sources: DueItemSource[] = [];

  register(source: DueItemSource): void {
    this.sources.push(source);
    this.sources.sort((a, b) => a.order - b.order);
  }

  get all(): readonly DueItemSource[] {
    return this.sources;
  }
}
