import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { LocalDate } from '@js-joda/core';
import { CommandResult, RecordCommands } from '../../records/commands/record-commands.js';
import { refusal } from '../../records/errors.js';
import { BOUNDED_FIRST_YEAR, BOUNDED_LAST_YEAR } from '../../records/validation/fields.js';
import type { Principal } from '../../platform/principal.js';
import type { WriteScope } from '../../persistence/write-scope.js';
import type { WireRecord } from '../../records/record-definition.js';
import { Database } from '../../persistence/database.js';
import { InjectRecords } from '../../records/record.module.js';
import type { RecordService } from '../../records/record.service.js';
import type { BilledCustomer } from '../due-items/due-items.js';
import { atMidnight } from '../due-items/periods.js';
import { BillingError, BillingRunner, CAPPED_MESSAGE, todayUtc } from './billing-runner.js';
import type { BilledInvoice } from './invoice-pricing.js';
import { billingRuns } from './billing-runs.definition.js';
import { billRunValue } from './billing-run-answers.js';
import { Metrics } from '../../observability/metrics.js';
import { bulkTurn } from '../../platform/bulk-lane.js';
import { coworkers } from '../../customers/coworkers/coworkers.definition.js';

export type RunTrigger = 'Manual' | 'Automatic';

/** What became of one customer of a run: its invoices, why it cannot be billed, or an unexpected failure. */
type CustomerOutcome = { invoices: BilledInvoice[] | BillingError } | { failed: unknown };

/** The outcome of billing some customers of one business. */
export interface BusinessRun {
  /** The invoices made (or previewed), with their lines: for a run that answers with them, not an automatic one. */
  invoices: BilledInvoice[];
  /** The ids of the invoices made, as the BillingRun records them. */
  invoiceIds: number[];
  errors: Array<{ CoworkerId: number; Message: string }>;
  customersBilled: number;
}

/**
 * Billing runs (docs/billing.md): COWORKER_BILL_RUN on customers, the raise route and the automatic
 * run all bill through `runBusiness`, which records the run of each business (not a preview).
 */
@Injectable()
export class BillingRunsService implements OnModuleInit {
  @Inject(Database) private readonly db: Database;
  @InjectRecords(billingRuns) private readonly records: RecordService;
  @Inject(RecordCommands) private readonly commands: RecordCommands;
  @Inject(BillingRunner) readonly runner: BillingRunner;
  @Inject(Metrics) private readonly metrics: Metrics;

  onModuleInit(): void {
    this.commands.register(coworkers, {
      key: 'COWORKER_BILL_RUN',
      name: 'Invoice now',
      permission: { entity: 'CoworkerInvoice', action: 'Create' },
      order: 10,
      parameters: [
        { Name: 'Until', Type: 'Date' },
        { Name: 'Preview', Type: 'Boolean' },
      ],
      value: billRunValue,
      // Each customer is billed all or nothing, and the run goes on with the others.
      transaction: 'own',
      run: ({ records, parameters, actor, write }) => this.command(records, parameters, actor, write),
    });
  }

  private async command(
    records: WireRecord[],
    parameters: Record<string, unknown>,
    actor: Principal | undefined,
    write: WriteScope | undefined,
  ): Promise<CommandResult> {
    const until = typeof parameters.Until === 'string' ? LocalDate.parse(parameters.Until) : todayUtc();
    // A run bills what is due up to Until, so Until bounds its work (docs/api.md §9.1 "Bounds").
    if (until.year() < BOUNDED_FIRST_YEAR || until.year() > BOUNDED_LAST_YEAR) {
      throw refusal(`Until: ${until.toString()} must lie between ${BOUNDED_FIRST_YEAR}-01-01 and ${BOUNDED_LAST_YEAR}-12-31.`);
    }
    const preview = parameters.Preview === true;
    const byBusiness = new Map<number, BilledCustomer[]>();
    for (const record of records) {
      const customer = { id: Number(record.Id), businessId: Number(record.BusinessId) };
      byBusiness.set(customer.businessId, [...(byBusiness.get(customer.businessId) ?? []), customer]);
    }
    const made: BilledInvoice[] = [];
    for (const [businessId, customers] of byBusiness) {
      made.push(...(await this.runBusiness(businessId, customers, until, preview ? 'Preview' : 'Manual', actor, write)).invoices);
    }
    // An invoice that could not take every due line says so (docs/api.md §9.1 "Bounds").
    const message = made.some((invoice) => invoice.capped) ? CAPPED_MESSAGE : null;
    if (preview)
      return new CommandResult(
        made.map(({ CoworkerId, CurrencyId, TotalAmount, TaxAmount, Lines }) => ({
          CoworkerId,
          CurrencyId,
          TotalAmount,
          TaxAmount,
          Lines,
        })),
        null,
        message,
      );
    return new CommandResult(
      made.map(({ Id, CoworkerId, InvoiceNumber, TotalAmount }) => ({ Id, CoworkerId, InvoiceNumber, TotalAmount })),
      null,
      message,
    );
  }

  /**
   * Bills (or previews) customers of one business up to `until`, in batches of `runner.batchSize`, each
   * all or nothing in one transaction (a preview's customers one by one), up to `runner.width` batches at
   * once (docs/billing.md "Exactly once"); a customer that cannot
   * be billed is an entry in Errors. Outcomes are taken in the order the customers come, whatever order
   * their transactions finish in, so the record lists them as a one-at-a-time run would. A run that is
   * not a preview is recorded as a BillingRun of that business, written when it starts (FinishedOn null)
   * and completed when it ends, so a run that stalls or dies midway is seen. An automatic run answers no one: it
   * keeps only the ids of the invoices it made, and it holds no more than a page of customers, plus the
   * few being billed, at a time.
   */
  async runBusiness(
    businessId: number,
    customers: Iterable<BilledCustomer> | AsyncIterable<BilledCustomer>,
    until: LocalDate,
    trigger: RunTrigger | 'Preview',
    actor: Principal | undefined,
    write?: WriteScope,
  ): Promise<BusinessRun> {
    const recorded = trigger === 'Preview' ? null : await this.recordStart(businessId, trigger, until, actor, write?.requestId);
    // Counted by trigger (docs/operations.md, "Metrics"); a preview is no run.
    const measured = trigger === 'Preview' ? null : { labels: { trigger }, began: performance.now() };
    if (measured) this.metrics.billingRunsStarted.inc(measured.labels);
    const run: BusinessRun = { invoices: [], invoiceIds: [], errors: [], customersBilled: 0 };
    const { width, batchSize } = this.runner;
    const billing: Array<{ customers: BilledCustomer[]; outcomes: Promise<CustomerOutcome[]> }> = [];
    let failure: { error: unknown } | undefined;
    const count = (customer: BilledCustomer, result: CustomerOutcome) => {
      // An unexpected failure ends the run once the customers already begun are done (none is left running).
      if ('failed' in result) return void (failure ??= { error: result.failed });
      if (result.invoices instanceof BillingError) {
        if (measured) this.metrics.billingRunCustomerErrors.inc(measured.labels);
        return void run.errors.push({ CoworkerId: customer.id, Message: result.invoices.message });
      }
      if (result.invoices.length) run.customersBilled++;
      if (measured) {
        this.metrics.billingRunInvoices.inc(measured.labels, result.invoices.length);
        this.metrics.billingRunLines.inc(
          measured.labels,
          result.invoices.reduce((lines, invoice) => lines + invoice.Lines.length, 0),
        );
      }
      for (const invoice of result.invoices) if (invoice.Id !== undefined) run.invoiceIds.push(invoice.Id);
      if (trigger !== 'Automatic') run.invoices.push(...result.invoices);
    };
    const take = async () => {
      const { customers, outcomes } = billing.shift()!;
      for (const [index, outcome] of (await outcomes).entries()) count(customers[index], outcome);
    };
    const begin = (customers: BilledCustomer[]) => {
      billing.push({ customers, outcomes: this.billBatch(customers, until, trigger, actor, write) });
    };
    let batch: BilledCustomer[] = [];
    // The first batches are small, each twice the one before up to batchSize: a run's first batches run
    // unoptimised code, several times slower, and a smaller one holds the request thread for less (SQLite).
    let size = Math.min(2, batchSize);
    for await (const customer of customers) {
      // The request was answered 503 (its deadline passed), or a customer failed unexpectedly: begin no
      // more customers (a retry bills what is left).
      if (write?.expired || failure) break;
      batch.push(customer);
      if (batch.length < size) continue;
      begin(batch);
      batch = [];
      size = Math.min(batchSize, size * 2);
      if (billing.length >= width) await take();
    }
    if (batch.length && !write?.expired && !failure) begin(batch);
    while (billing.length) await take();
    if (failure || write?.expired) this.countEnd(measured, this.metrics.billingRunsFailed);
    if (failure) throw failure.error;
    if (recorded !== null) await this.recordFinish(recorded, run, actor, write?.requestId);
    if (!write?.expired) this.countEnd(measured, this.metrics.billingRunsFinished);
    return run;
  }

  /** A run that ended (finished or failed), with how long it took (docs/operations.md, "Metrics"). */
  private countEnd(measured: { labels: { trigger: RunTrigger }; began: number } | null, ended: Metrics['billingRunsFinished']): void {
    if (!measured) return;
    ended.inc(measured.labels);
    this.metrics.billingRunDuration.observe(measured.labels, (performance.now() - measured.began) / 1000);
  }

  /**
   * The outcome of each of a batch's customers, in their order: billed in one transaction when they can be
   * (BillingRunner.billBatch), else one by one. Begun in a later turn of the event loop (bulkTurn), after
   * the requests that arrived meanwhile; settled into values, so a failure while an earlier batch is
   * awaited is no unhandled rejection.
   */
  private async billBatch(
    customers: BilledCustomer[],
    until: LocalDate,
    trigger: RunTrigger | 'Preview',
    actor: Principal | undefined,
    write: WriteScope | undefined,
  ): Promise<CustomerOutcome[]> {
    await bulkTurn();
    if (trigger !== 'Preview' && customers.length > 1) {
      try {
        const made = await this.runner.billBatch(customers, until, actor, write?.requestId);
        if (made) return made.map((invoices) => ({ invoices }));
      } catch (failed) {
        return customers.map(() => ({ failed }));
      }
    }
    const outcomes: CustomerOutcome[] = [];
    for (const customer of customers) {
      // As between batches: past the request's deadline, or after an unexpected failure, no more customers begin.
      if (write?.expired) break;
      try {
        outcomes.push({ invoices: await this.billOne(customer, until, trigger, actor, write?.requestId) });
      } catch (failed) {
        outcomes.push({ failed });
        break;
      }
    }
    return outcomes;
  }

  /** One customer's invoices, or the BillingError that says why it cannot be billed. */
  private async billOne(
    customer: BilledCustomer,
    until: LocalDate,
    trigger: RunTrigger | 'Preview',
    actor: Principal | undefined,
    requestId: string | undefined,
  ): Promise<BilledInvoice[] | BillingError> {
    try {
      return trigger === 'Preview' ? await this.runner.preview(customer, until) : await this.runner.bill(customer, until, actor, requestId);
    } catch (error) {
      if (error instanceof BillingError) return error;
      throw error;
    }
  }

  /** The BillingRun record of one business's run as it starts (FinishedOn null), with its history entry: its Id. */
  private async recordStart(
    businessId: number,
    trigger: RunTrigger,
    until: LocalDate,
    actor: Principal | undefined,
    requestId: string | undefined,
  ): Promise<number> {
    const now = new Date();
    const values = {
      BusinessId: businessId,
      Trigger: trigger,
      StartedOn: now,
      FinishedOn: null,
      Until: atMidnight(until),
      CustomersBilled: 0,
      InvoiceIds: [],
      ErrorList: JSON.stringify([]),
    };
    return this.db.transaction(async (tx) => (await this.records.createRecorded(tx, actor, values, { now })).id, undefined, requestId);
  }

  /** Completes the BillingRun record of a run that ended: when, and what it did. */
  private async recordFinish(id: number, run: BusinessRun, actor: Principal | undefined, requestId: string | undefined): Promise<void> {
    await this.db.transaction(
      async (tx) => {
        const now = new Date();
        const finished = {
          FinishedOn: now,
          CustomersBilled: run.customersBilled,
          InvoiceIds: run.invoiceIds,
          ErrorList: JSON.stringify(run.errors),
        };
        await this.records.updateRecorded(tx, actor, id, finished, { now });
      },
      undefined,
      requestId,
    );
  }
}
