import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Database } from '../../persistence/database.js';
import type { AppConfig } from '../../config/configuration.js';
import type { BilledCustomer } from '../due-items/due-items.js';
import { atMidnight } from '../due-items/periods.js';
import { todayUtc } from './billing-runner.js';
import { BillingRunsService } from './billing-runs.service.js';
import { BillingRunsRepository } from './billing-runs.repository.js';

/** Customers read at a time: a run never holds all of a business's customers in memory. */
const PAGE = 200;
/** How long a lease on a business's automatic run holds: a dead instance's lease runs out after it. */
const LEASE_MS = 15 * 60_000;

/**
 * The automatic billing run (docs/billing.md "Automatic runs"): every
 * BILLING_RUN_INTERVAL_SECONDS each instance looks for businesses with a contract period due up to
 * today (RenewalDate), takes a lease on each in billing_lease (one conditional UPDATE: one instance
 * per business at a time, others take other businesses), bills its due customers page by page, and
 * records the run. What instances do at once is still billed once: the claims make sure of it.
 */
@Injectable()
export class BillingRunWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Billing');
  private readonly rows = new BillingRunsRepository(this.db);
  private readonly owner = `${hostname().slice(0, 40)}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly intervalMs: number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopping = false;

  constructor(
    private readonly db: Database,
    private readonly runs: BillingRunsService,
    config: ConfigService<AppConfig, true>,
  ) {
    this.intervalMs = config.get('BILLING_RUN_INTERVAL_SECONDS', { infer: true }) * 1000;
  }

  onApplicationBootstrap(): void {
    if (!this.intervalMs) return;
    this.timer = setInterval(() => void this.runOnce(), this.intervalMs);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    await this.running;
  }

  /** One look: bills every business with contract periods due whose lease this instance gets. */
  runOnce(): Promise<void> {
    if (this.stopping) return Promise.resolve();
    this.running ??= this.look()
      .catch((error: unknown) => {
        this.logger.warn(`Automatic billing run failed: ${error instanceof Error ? error.message : String(error)}`);
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  private async look(): Promise<void> {
    const today = todayUtc();
    for (const businessId of await this.dueBusinesses(today)) {
      if (this.stopping) return;
      if (!(await this.lease(businessId))) continue;
      try {
        await this.runs.runBusiness(businessId, this.dueCustomers(businessId, today), today, 'Automatic', undefined);
      } finally {
        await this.release(businessId);
      }
    }
  }

  private async dueBusinesses(today: ReturnType<typeof todayUtc>): Promise<number[]> {
    return this.rows.dueBusinesses(atMidnight(today));
  }

  /**
   * The business's customers with a contract period due to them, a page of contracts' customers at a time
   * in Id order (docs/billing.md, "Team invoices"): a team member's due contract period is due to the
   * paying member that takes its items, which comes in its member's place, and the member comes as well
   * when that contract has products with InvoiceCoworker, which stay with it. A customer that pays for a
   * team comes once a run: `given` holds those already given, at most one per paying member.
   */
  private async *dueCustomers(businessId: number, today: ReturnType<typeof todayUtc>): AsyncGenerator<BilledCustomer> {
    const given = new Set<number>();
    const once = (id: number, paysForTeam: boolean): boolean => {
      if (given.has(id)) return false;
      if (paysForTeam) given.add(id);
      return true;
    };
    let after = 0;
    for (;;) {
      const rows = await this.rows.dueCustomersPage(businessId, atMidnight(today), after, PAGE);
      for (const row of rows) {
        const customer = Number(row.c);
        const payer = row.payer === null ? customer : Number(row.payer);
        const pays = Boolean(Number(row.pays));
        if (payer !== customer && once(payer, true)) yield { id: payer, businessId };
        if ((payer === customer || Boolean(Number(row.direct))) && once(customer, pays)) yield { id: customer, businessId };
      }
      if (rows.length < PAGE || this.stopping) return;
      after = Number(rows[rows.length - 1].c);
    }
  }

  /** Takes the business's lease when it is free or ran out: one conditional UPDATE; whether this instance holds it. */
  private async lease(businessId: number): Promise<boolean> {
    const now = new Date();
    return this.rows.takeLease(businessId, this.owner, now, new Date(now.getTime() + LEASE_MS));
  }

  private async release(businessId: number): Promise<void> {
    await this.rows.releaseLease(businessId, this.owner).catch(() => undefined);
  }
}
