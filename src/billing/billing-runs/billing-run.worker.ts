import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Database } from '../../common/database.js';
import { isUniqueViolation } from '../../common/database-errors.js';
import type { AppConfig } from '../../config/configuration.js';
import { Coworker } from '../../billing/coworkers/coworker.entity.js';
import { CoworkerContract } from '../coworker-contracts/coworker-contract.entity.js';
import type { BilledCustomer } from '../due-items/due-items.js';
import { atMidnight } from '../due-items/periods.js';
import { todayUtc } from './billing-runner.js';
import { BillingRunsService } from './billing-runs.service.js';

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
  private readonly owner = `${hostname().slice(0, 40)}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly intervalMs: number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopping = false;

  constructor(private readonly db: Database, private readonly runs: BillingRunsService, config: ConfigService<AppConfig, true>) {
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
    this.running ??= this.look().catch((error: unknown) => {
      this.logger.warn(`Automatic billing run failed: ${error instanceof Error ? error.message : String(error)}`);
    }).finally(() => {
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

  /** SQL of "contracts with a period due up to today": RenewalDate (the next period to bill) on or before it. */
  private dueCondition(): string {
    return `k.${this.db.id('RenewalDate')} IS NOT NULL AND k.${this.db.id('RenewalDate')} <= ?`;
  }

  private async dueBusinesses(today: ReturnType<typeof todayUtc>): Promise<number[]> {
    const { db } = this;
    const rows = await db.query(
      `SELECT DISTINCT w.${db.id('BusinessId')} AS b FROM ${db.tableOf(CoworkerContract)} k JOIN ${db.tableOf(Coworker)} w ON w.${db.id('Id')} = k.${db.id('CoworkerId')} WHERE ${this.dueCondition()} ORDER BY w.${db.id('BusinessId')}`,
      [db.dateParam(atMidnight(today))],
    );
    return rows.map((row) => Number(row.b));
  }

  /** The business's customers with a contract period due, a page at a time, in Id order. */
  private async *dueCustomers(businessId: number, today: ReturnType<typeof todayUtc>): AsyncGenerator<BilledCustomer> {
    const { db } = this;
    let after = 0;
    for (;;) {
      const rows = await db.query(
        `SELECT DISTINCT k.${db.id('CoworkerId')} AS c FROM ${db.tableOf(CoworkerContract)} k JOIN ${db.tableOf(Coworker)} w ON w.${db.id('Id')} = k.${db.id('CoworkerId')} ` +
        `WHERE w.${db.id('BusinessId')} = ? AND ${this.dueCondition()} AND k.${db.id('CoworkerId')} > ? ORDER BY k.${db.id('CoworkerId')} LIMIT ${PAGE}`,
        [businessId, db.dateParam(atMidnight(today)), after],
      );
      for (const row of rows) yield { id: Number(row.c), businessId };
      if (rows.length < PAGE || this.stopping) return;
      after = Number(rows[rows.length - 1].c);
    }
  }

  /** Takes the business's lease when it is free or ran out: one conditional UPDATE; whether this instance holds it. */
  private async lease(businessId: number): Promise<boolean> {
    const { db } = this;
    const q = (n: string) => db.id(n);
    const now = new Date();
    try {
      await db.query(`INSERT INTO ${q('billing_lease')} (${q('BusinessId')}, ${q('Holder')}, ${q('LeaseUntil')}) VALUES (?, NULL, ?)`, [businessId, db.dateParam(new Date(0))]);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const result = await db.run(
      `UPDATE ${q('billing_lease')} SET ${q('Holder')} = ?, ${q('LeaseUntil')} = ?, ${q('LastRunOn')} = ? WHERE ${q('BusinessId')} = ? AND ${q('LeaseUntil')} < ?`,
      [this.owner, db.dateParam(new Date(now.getTime() + LEASE_MS)), db.dateParam(now), businessId, db.dateParam(now)],
    );
    return result.affected === 1;
  }

  private async release(businessId: number): Promise<void> {
    const { db } = this;
    const q = (n: string) => db.id(n);
    await db.query(`UPDATE ${q('billing_lease')} SET ${q('Holder')} = NULL, ${q('LeaseUntil')} = ? WHERE ${q('BusinessId')} = ? AND ${q('Holder')} = ?`, [db.dateParam(new Date(0)), businessId, this.owner])
      .catch(() => undefined);
  }
}
