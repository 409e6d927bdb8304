import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Database } from '../../common/database.js';
import { isUniqueViolation } from '../../common/database-errors.js';
import type { AppConfig } from '../../config/configuration.js';
import { Coworker } from '../../billing/coworkers/coworker.entity.js';
import { ContractProduct } from '../contract-products/contract-product.entity.js';
import { CoworkerContract } from '../coworker-contracts/coworker-contract.entity.js';
import { Product } from '../products/product.entity.js';
import { Team } from '../teams/team.entity.js';
import type { BilledCustomer } from '../due-items/due-items.js';
import { atMidnight } from '../due-items/periods.js';
import { todayUtc } from './billing-runner.js';
import { BillingRunsService } from './billing-runs.service.js';
import { payingMemberSql } from './team-invoicing.js';

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

  /**
   * The business's customers with a contract period due to them, a page of contracts' customers at a time
   * in Id order (docs/billing.md, "Team invoices"): a team member's due contract period is due to the
   * paying member that takes its items, which comes in its member's place, and the member comes as well
   * when that contract has products with InvoiceCoworker, which stay with it. A customer that pays for a
   * team comes once a run: `given` holds those already given, at most one per paying member.
   */
  private async *dueCustomers(businessId: number, today: ReturnType<typeof todayUtc>): AsyncGenerator<BilledCustomer> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const given = new Set<number>();
    const once = (id: number, paysForTeam: boolean): boolean => {
      if (given.has(id)) return false;
      if (paysForTeam) given.add(id);
      return true;
    };
    let after = 0;
    for (;;) {
      const rows = await db.query(
        `SELECT x.c AS c, x.direct AS direct, ${payingMemberSql(db, 'x.c')} AS payer, ` +
        `CASE WHEN EXISTS (SELECT 1 FROM ${db.tableOf(Team)} tp WHERE tp.${q('PayingMemberId')} = x.c AND tp.${q('CreateSingleInvoiceForTeam')} = 1) THEN 1 ELSE 0 END AS pays ` +
        `FROM (SELECT k.${q('CoworkerId')} AS c, MAX(CASE WHEN p.${q('Id')} IS NULL THEN 0 ELSE 1 END) AS direct ` +
        `FROM ${db.tableOf(CoworkerContract)} k JOIN ${db.tableOf(Coworker)} w ON w.${q('Id')} = k.${q('CoworkerId')} ` +
        `LEFT JOIN ${db.tableOf(ContractProduct)} cp ON cp.${q('CoworkerContractId')} = k.${q('Id')} LEFT JOIN ${db.tableOf(Product)} p ON p.${q('Id')} = cp.${q('ProductId')} AND p.${q('InvoiceCoworker')} = 1 ` +
        `WHERE w.${q('BusinessId')} = ? AND ${this.dueCondition()} AND k.${q('CoworkerId')} > ? GROUP BY k.${q('CoworkerId')} ORDER BY k.${q('CoworkerId')} LIMIT ${PAGE}) x ORDER BY x.c`,
        [businessId, db.dateParam(atMidnight(today)), after],
      );
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
