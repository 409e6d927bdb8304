import { Injectable } from '@nestjs/common';
import type { LocalDate } from '@js-joda/core';
import { Database } from '../../persistence/database.js';
import { isUniqueViolation } from '../../persistence/database-errors.js';
import type { Principal } from '../../platform/principal.js';
import { CoworkerInvoiceLinesService } from '../coworker-invoice-lines/coworker-invoice-lines.service.js';
import { CoworkerInvoicesService } from '../coworker-invoices/coworker-invoices.service.js';
import { type BilledCustomer, type DueItem, type DueLine } from '../due-items/due-items.js';
import { claimRows } from '../due-items/set-claims.js';
import { toUnits, type Units } from '../../kernel/money.js';
import { earliestLines } from '../due-items/earliest-lines.js';
import { atMidnight, utcDate } from '../due-items/periods.js';
import { BillingRunsRepository } from './billing-runs.repository.js';
import { TeamInvoicing } from './team-invoicing.js';
import { billedAnswer, invoiceFields, lineFields, priceLine, type BilledInvoice, type PlannedInvoice } from './invoice-pricing.js';
import { UniversalCredits, type Spendable } from './universal-credits.js';
import { BatchIssuance, type BatchWrites } from './batch-issuance.js';
import { bulkTurn } from '../../platform/bulk-lane.js';
import type { Tx } from '../../persistence/tx.js';

/** How many times a customer's transaction is tried when another run billed one of its items first. */
const CLAIM_ATTEMPTS = 4;
/** At most this many batches of a run are billed at once (docs/billing.md "Exactly once"). */
const MAX_WIDTH = 2;
/** Customers one transaction of a run bills (docs/billing.md "Exactly once"; batchSize): on MySQL, and on SQLite. */
const BATCH = { mysql: 16, sqlite: 8 } as const;
/** Pool connections a run leaves to everything else: the API's requests and the run's own page reads. */
const POOL_RESERVE = 2;

/**
 * At most this many lines on one invoice a run makes (docs/billing.md "Bounds"): when more are due, the
 * earliest are billed and the rest waits for the next run.
 */
export const MAX_INVOICE_LINES = 1000;

/** The Message of a run or preview that left due lines for the next run (docs/api.md §9.1 "Bounds"). */
export const CAPPED_MESSAGE = `Only the first ${MAX_INVOICE_LINES.toLocaleString('en-US')} due lines were billed; the rest waits for the next run.`;

/** A customer whose items cannot be billed (docs/billing.md): no invoice, an entry in the run's Errors. */
export class BillingError extends Error {}

/** Another run billed one of the customer's items after this one read them: try the customer again. */
class ClaimLost extends Error {}

/** A batch that cannot be billed as one (a customer gone, or one a team's invoice concerns): its customers are billed one by one. */
class BatchUnfit extends Error {}

/**
 * Bills one customer (docs/billing.md): asks every item source what is due to it up to `until` (its
 * team members' items included: TeamInvoicing), prices the lines, and — unless previewing — writes in ONE transaction the invoices
 * (one per currency, numbered as any invoice), their lines, the claims that mark each item billed,
 * and their history and webhook events. A claim that finds its item billed by another run meanwhile
 * (or a line refused by the unique BilledItemKey) rolls the customer back; it is tried again and then
 * finds only what is left. A preview runs the same code without a transaction and writes nothing.
 */
@Injectable()
export class BillingRunner {
  private readonly rows = new BillingRunsRepository(this.db);

  constructor(
    private readonly db: Database,
    private readonly invoices: CoworkerInvoicesService,
    private readonly lines: CoworkerInvoiceLinesService,
    private readonly teams: TeamInvoicing,
    private readonly universalCredits: UniversalCredits,
    private readonly issuance: BatchIssuance,
  ) {}

  /**
   * Between a batch's steps on SQLite the request thread first serves the requests that arrived (bulk-lane.ts):
   * better-sqlite3 answers at once, so a batch would otherwise hold the thread from its BEGIN to its COMMIT, and
   * reads from outside need not wait for it (a connection of their own: docs/architecture.md §7). On MySQL every
   * statement already lets the thread go, and a pause would only hold the batch's row locks (the counter) longer.
   */
  private readonly pause = (): Promise<void> => (this.db.isMySql ? Promise.resolve() : bulkTurn());

  /** Transactions billing customers began, and how many of them were a retry (a conflict or a claim lost): bench/billing.ts reports them. */
  readonly attempts = { transactions: 0, retries: 0 };

  /**
   * How many batches a run bills at once (docs/billing.md "Exactly once"): on MariaDB min(2, pool size − 2),
   * at least 1 — each batch holds a pool connection for its transaction, two are left to the API and the
   * run's page reads, and while one batch writes (holding the business's invoice counter row) the other
   * reads. SQLite has one writer: the second batch is queued behind the first.
   */
  get width(): number {
    const pool = this.db.poolUse();
    if (!pool) return MAX_WIDTH;
    return Math.max(1, Math.min(MAX_WIDTH, pool.limit - POOL_RESERVE));
  }

  /**
   * How many customers one transaction bills (docs/billing.md "Exactly once"). On MySQL 16 spread a batch's
   * fixed statements thinnest for the round trips they cost. On SQLite a batch's steps hold the request thread
   * between its pauses, and 8 kept GET's p99 during a run lower than 16 at no loss of speed (docs/performance.md,
   * "Figures of 2026-11-30").
   */
  get batchSize(): number {
    return this.db.isMySql ? BATCH.mysql : BATCH.sqlite;
  }

  /** The customer's business (null when it does not exist). */
  async customer(id: number, tx?: Tx): Promise<BilledCustomer | null> {
    const businessId = await this.rows.businessOfCustomer(id, tx);
    return businessId === null ? null : { id, businessId };
  }

  /** What billing the customer now would make, writing nothing. */
  async preview(customer: BilledCustomer, until: LocalDate): Promise<BilledInvoice[]> {
    const planned = await this.plan(customer, until, undefined, undefined);
    return planned.map((invoice) => billedAnswer(customer, invoice));
  }

  /** Bills the customer; the invoices made (none when nothing was due). Throws BillingError when it cannot. */
  /** `requestId`: the request the run answers, which the change log records (none for an automatic run). */
  async bill(customer: BilledCustomer, until: LocalDate, actor: Principal | undefined, requestId?: string): Promise<BilledInvoice[]> {
    let began = 0;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.db.causalTransaction(
          (tx) => {
            // A deadlock or lock wait timeout runs the work again inside causalTransaction: counted here.
            this.attempts.transactions++;
            if (began++ > 0) this.attempts.retries++;
            return this.billIn(tx, customer, until, actor);
          },
          undefined,
          requestId,
        );
      } catch (error) {
        const lost = error instanceof ClaimLost || isUniqueViolation(error);
        if (!lost) throw error;
        if (attempt >= CLAIM_ATTEMPTS)
          throw new BillingError("Another run kept billing this customer's items at the same time; try again.");
      }
    }
  }

  /**
   * Bills a batch of customers of ONE business in one transaction (docs/billing.md "Exactly once"): their turns
   * taken by one UPDATE, then each source read once for all of them; each customer's invoices are then
   * made as `bill` makes them. All or nothing: null when the batch cannot be billed as one (a customer
   * gone or one a team's invoice concerns, a claim lost, a customer that cannot be billed), and nothing
   * of it was written: the caller then bills its customers one by one, each as `bill` does.
   */
  async billBatch(
    customers: readonly BilledCustomer[],
    until: LocalDate,
    actor: Principal | undefined,
    requestId?: string,
  ): Promise<BilledInvoice[][] | null> {
    let began = 0;
    try {
      return await this.db.causalTransaction(
        async (tx) => {
          // A deadlock or lock wait timeout runs the work again inside causalTransaction: counted here.
          this.attempts.transactions++;
          if (began++ > 0) this.attempts.retries++;
          const ids = customers.map((customer) => customer.id);
          if (!(await this.takeTurns(ids, tx))) throw new BatchUnfit();
          if ((await this.teams.inTeamInvoices(ids, tx)).size) throw new BatchUnfit();
          const items = await this.teams.dueToEach({ customerIds: ids, until, tx });
          await this.pause();
          const plans: PlannedInvoice[][] = [];
          const spendable = this.universalCredits.spendableInBatch(ids, customers[0].businessId, tx);
          for (const customer of customers)
            plans.push(await this.plan(customer, until, tx, actor, items.get(customer.id) ?? [], spendable));
          // All the batch's invoices at once where that writes what one customer after another would (BatchIssuance.fits).
          const atOnce = this.issuance.fits(plans);
          const batch: BatchWrites = { numbers: [], claims: [], lookedUp: new Map(), pause: this.pause };
          await this.pause();
          if (atOnce) await this.issuance.lookUp(tx, customers, plans, batch);
          // The batch's invoice numbers last, in its customers' order: the counter row is held from here to COMMIT.
          const count = plans.reduce((sum, planned) => sum + planned.length, 0);
          if (count) batch.numbers = await this.invoices.reserveNumbers(tx, customers[0].businessId, count);
          let made: BilledInvoice[][] = [];
          if (atOnce) made = await this.issuance.write(tx, customers, plans, actor, batch);
          else
            for (const [index, customer] of customers.entries())
              made.push(await this.billPlanned(tx, customer, plans[index], actor, batch));
          await this.pause();
          // The batch's claims last, of each kind by one statement: one lost rolls the whole batch back.
          if (!(await claimRows(this.db, tx, actor, customers[0].businessId, batch.claims, batch.history))) throw new ClaimLost();
          await this.pause();
          await this.issuance.recordHistory(tx, batch);
          return made;
        },
        undefined,
        requestId,
      );
    } catch (error) {
      if (error instanceof BatchUnfit || error instanceof ClaimLost || error instanceof BillingError || isUniqueViolation(error))
        return null;
      throw error;
    }
  }

  private async billIn(tx: Tx, customer: BilledCustomer, until: LocalDate, actor: Principal | undefined): Promise<BilledInvoice[]> {
    // Runs for one customer take turns on its row, on any node: the second reads what the first left.
    if (!(await this.takeTurns([customer.id], tx))) throw new BillingError(`Coworker ${customer.id} does not exist.`);
    return this.billPlanned(tx, customer, await this.plan(customer, until, tx, actor), actor);
  }

  /**
   * Writes the planned invoices of a customer whose turn this transaction holds: the invoices made.
   * In a batch (`batch`), each invoice takes the first number left and its claims are gathered; else each
   * takes its own number and makes its claims here.
   */
  private async billPlanned(
    tx: Tx,
    customer: BilledCustomer,
    planned: PlannedInvoice[],
    actor: Principal | undefined,
    batch?: BatchWrites,
  ): Promise<BilledInvoice[]> {
    const made: BilledInvoice[] = [];
    const today = atMidnight(todayUtc());
    for (const invoice of planned) {
      const { id, written } = await this.invoices.issue(
        tx,
        actor,
        invoiceFields(customer, invoice, today),
        batch?.numbers.shift(),
        batch?.lookedUp,
      );
      const number = String(written.InvoiceNumber);
      const lineIds = await this.lines.insertLines(
        tx,
        actor,
        invoice.lines.map((line) => lineFields(line, id)),
        customer.businessId,
      );
      for (const [index, line] of invoice.lines.entries())
        await this.universalCredits.recordUses(tx, actor, lineIds[index], customer.id, line);
      for (const [index, { item, lines }] of invoice.items.entries()) {
        const context = {
          tx,
          actor,
          invoice: { id, number, on: new Date() },
          businessId: customer.businessId,
          credited: invoice.credited[index],
        };
        if (batch && item.claimRow) batch.claims.push(item.claimRow(context, lines));
        else if (!(await item.claim(context, lines))) throw new ClaimLost();
      }
      await this.invoices.recordIssued(tx, actor, id, written);
      made.push({ ...billedAnswer(customer, invoice), Id: id, InvoiceNumber: number });
    }
    return made;
  }

  /**
   * The invoices due items make, priced, per currency, each with at most MAX_INVOICE_LINES lines, the
   * earliest (docs/billing.md "Bounds"), with the credit lines of universal credits after the lines they
   * pay (spent with `tx`, only planned without: a preview); throws BillingError when a line cannot be billed.
   * `collected`: the customer's items, read with its batch's (billBatch), when no team's invoice concerns it;
   * `spendable`: its universal credits, read with its batch's.
   */
  private async plan(
    customer: BilledCustomer,
    until: LocalDate,
    tx: Tx | undefined,
    actor: Principal | undefined,
    collected?: DueItem[],
    spendable?: Spendable,
  ): Promise<PlannedInvoice[]> {
    // What is due to the customer, its team members' items included (docs/billing.md, "Team invoices").
    const items = collected ?? (await this.teams.dueTo({ customer, until, tx }, tx && ((memberId) => this.takeTurns([memberId], tx))));
    const taken = earliestLines(items, MAX_INVOICE_LINES);
    if (!taken.length) return [];
    const dueLines = taken.flatMap((invoice) => invoice.items.flatMap((item) => item.lines));
    const rates = await this.taxRates(customer, dueLines, tx);
    const credits = await (spendable ? spendable(customer, dueLines) : this.universalCredits.spendable(customer, dueLines, tx));
    const planned: PlannedInvoice[] = [];
    for (const { currencyId, items: chosen, capped } of taken) {
      const first = chosen[0].lines[0];
      const invoice: PlannedInvoice = {
        currencyId,
        lines: [],
        items: chosen,
        credited: [],
        capped,
        total: 0n,
        tax: 0n,
        subscription: 0n,
        from: first.periodFrom,
        to: first.periodTo,
      };
      const priced = chosen.flatMap((item) => item.lines).map((line, index) => priceLine(line, rates, index + 1));
      invoice.lines = await this.universalCredits.pay(priced, credits, tx, actor);
      for (const line of invoice.lines) {
        invoice.total += line.subTotal + line.tax;
        invoice.tax += line.tax;
        if (line.subscription) invoice.subscription += line.subTotal + line.tax;
      }
      for (const line of chosen.flatMap((item) => item.lines)) {
        if (line.periodFrom.isBefore(invoice.from)) invoice.from = line.periodFrom;
        if (line.periodTo.isAfter(invoice.to)) invoice.to = line.periodTo;
      }
      let next = 0;
      invoice.credited = chosen.map((item) =>
        priced.slice(next, (next += item.lines.length)).reduce((sum, line) => sum + line.credited, 0n),
      );
      planned.push(invoice);
    }
    return planned;
  }

  /** The rates of the tax rates the lines name: each must be one of the customer's business. */
  private async taxRates(customer: BilledCustomer, lines: DueLine[], tx: Tx | undefined): Promise<Map<number, Units>> {
    const ids = [...new Set(lines.map((line) => line.taxRateId).filter((id): id is number => id !== null))];
    const rates = new Map<number, Units>();
    if (!ids.length) return rates;
    for (const row of await this.rows.taxRates(ids, tx)) if (row.businessId === customer.businessId) rates.set(row.id, toUnits(row.rate));
    for (const id of ids) {
      if (!rates.has(id)) {
        const line = lines.find((candidate) => candidate.taxRateId === id)!;
        throw new BillingError(`"${line.description}" names TaxRate ${id}, which is not a tax rate of Business ${customer.businessId}.`);
      }
    }
    return rates;
  }

  /**
   * The customers' billing turns (docs/billing.md, "Exactly once"): a write of each one's row (BillingSequence
   * + 1) before anything is read, one UPDATE for all. Every transaction billing a customer makes it, so they
   * conflict: on one server the second waits for the first to commit; on Galera, where a lock (SELECT … FOR
   * UPDATE) holds only on its own node, the write is replicated and certified, so a transaction that
   * overlaps one committed on another node is aborted (a deadlock, run again) and never commits on what it
   * read. False when one of them does not exist.
   */
  private takeTurns(ids: readonly number[], tx: Tx): Promise<boolean> {
    return this.rows.takeTurns(ids, tx);
  }
}

/** Today's UTC calendar date. */
export const todayUtc = (): LocalDate => utcDate(new Date());
