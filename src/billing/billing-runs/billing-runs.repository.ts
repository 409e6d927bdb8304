import { Database } from '../../persistence/database.js';
import { isUniqueViolation } from '../../persistence/database-errors.js';
import { TaxRate } from '../../kernel/tax-rates/tax-rate.entity.js';
import { ContractProduct } from '../contract-products/contract-product.entity.js';
import { CoworkerBookingCredit } from '../coworker-booking-credits/coworker-booking-credit.entity.js';
import { CoworkerContract } from '../coworker-contracts/coworker-contract.entity.js';
import { Coworker } from '../../customers/coworker.entity.js';
import { customerBusiness } from '../../customers/customer-rows.repository.js';
import { Product } from '../products/product.entity.js';
import { Team } from '../../customers/teams/team.entity.js';
import { TEAM_MEMBERS } from '../../customers/teams/teams.definition.js';
import { inList } from '../due-items/due-items.js';
import type { Tx } from '../../persistence/tx.js';

/** A row of a page of a business's due customers (`dueCustomersPage`). */
export interface DueCustomerRow {
  /** The contract's customer. */
  c: unknown;
  /** 1 when one of its due contracts has a product with InvoiceCoworker. */
  direct: unknown;
  /** Its paying member (payingMemberSql), or NULL. */
  payer: unknown;
  /** 1 when it pays for a team with CreateSingleInvoiceForTeam. */
  pays: unknown;
}

/**
 * SQL: the paying member that takes the items of the customer whose Id is `coworker` (an SQL expression),
 * or NULL when they are its own: the PayingMemberId of the lowest-Id team it belongs to that has a
 * paying member and CreateSingleInvoiceForTeam. That is the customer itself when it pays for that team.
 */
function payingMemberSql(db: Database, coworker: string): string {
  const q = (name: string) => db.id(name);
  return (
    `(SELECT pt.${q('PayingMemberId')} FROM ${db.tableOf(Team)} pt JOIN ${q(TEAM_MEMBERS.table)} pm ON pm.${q(TEAM_MEMBERS.on)} = pt.${q('Id')} ` +
    `WHERE pm.${q(TEAM_MEMBERS.column)} = ${coworker} AND pt.${q('PayingMemberId')} IS NOT NULL AND pt.${q('CreateSingleInvoiceForTeam')} = 1 ORDER BY pt.${q('Id')} LIMIT 1)`
  );
}

/**
 * The SQL of billing runs (docs/billing.md): the automatic run's due businesses and customers and its
 * lease, the customer's billing turn, tax rates, team payers and universal credits. The claims of due
 * items are in due-sources.repository.ts.
 */
export class BillingRunsRepository {
  constructor(private readonly db: Database) {}

  /** SQL of "contracts with a period due up to today": RenewalDate (the next period to bill) on or before it. */
  private dueCondition(): string {
    return `k.${this.db.id('RenewalDate')} IS NOT NULL AND k.${this.db.id('RenewalDate')} <= ?`;
  }

  /** The businesses with a contract period due up to `dueBy` (midnight of today), in Id order. */
  async dueBusinesses(dueBy: Date): Promise<number[]> {
    const { db } = this;
    const rows = await db.query(
      `SELECT DISTINCT w.${db.id('BusinessId')} AS b FROM ${db.tableOf(CoworkerContract)} k JOIN ${db.tableOf(Coworker)} w ON w.${db.id('Id')} = k.${db.id('CoworkerId')} WHERE ${this.dueCondition()} ORDER BY w.${db.id('BusinessId')}`,
      [db.dateParam(dueBy)],
    );
    return rows.map((row) => Number(row.b));
  }

  /** A page of `size` customers of the business with a contract period due up to `dueBy`, after customer `after`, in Id order. */
  dueCustomersPage(businessId: number, dueBy: Date, after: number, size: number): Promise<DueCustomerRow[]> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    return db.query<DueCustomerRow>(
      `SELECT x.c AS c, x.direct AS direct, ${payingMemberSql(db, 'x.c')} AS payer, ` +
        `CASE WHEN EXISTS (SELECT 1 FROM ${db.tableOf(Team)} tp WHERE tp.${q('PayingMemberId')} = x.c AND tp.${q('CreateSingleInvoiceForTeam')} = 1) THEN 1 ELSE 0 END AS pays ` +
        `FROM (SELECT k.${q('CoworkerId')} AS c, MAX(CASE WHEN p.${q('Id')} IS NULL THEN 0 ELSE 1 END) AS direct ` +
        `FROM ${db.tableOf(CoworkerContract)} k JOIN ${db.tableOf(Coworker)} w ON w.${q('Id')} = k.${q('CoworkerId')} ` +
        `LEFT JOIN ${db.tableOf(ContractProduct)} cp ON cp.${q('CoworkerContractId')} = k.${q('Id')} LEFT JOIN ${db.tableOf(Product)} p ON p.${q('Id')} = cp.${q('ProductId')} AND p.${q('InvoiceCoworker')} = 1 ` +
        `WHERE w.${q('BusinessId')} = ? AND ${this.dueCondition()} AND k.${q('CoworkerId')} > ? GROUP BY k.${q('CoworkerId')} ORDER BY k.${q('CoworkerId')} LIMIT ${size}) x ORDER BY x.c`,
      [businessId, db.dateParam(dueBy), after],
    );
  }

  /**
   * Takes the business's lease for `holder` until `until` when it is free or ran out: the row is made
   * once (a duplicate ignored), then one conditional UPDATE; whether `holder` holds it.
   */
  async takeLease(businessId: number, holder: string, now: Date, until: Date): Promise<boolean> {
    const { db } = this;
    const q = (n: string) => db.id(n);
    try {
      await db.query(`INSERT INTO ${q('billing_lease')} (${q('BusinessId')}, ${q('Holder')}, ${q('LeaseUntil')}) VALUES (?, NULL, ?)`, [
        businessId,
        db.dateParam(new Date(0)),
      ]);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const result = await db.run(
      `UPDATE ${q('billing_lease')} SET ${q('Holder')} = ?, ${q('LeaseUntil')} = ?, ${q('LastRunOn')} = ? WHERE ${q('BusinessId')} = ? AND ${q('LeaseUntil')} < ?`,
      [holder, db.dateParam(until), db.dateParam(now), businessId, db.dateParam(now)],
    );
    return result.affected === 1;
  }

  /** Gives the business's lease up, when `holder` still holds it. */
  async releaseLease(businessId: number, holder: string): Promise<void> {
    const { db } = this;
    const q = (n: string) => db.id(n);
    await db.query(
      `UPDATE ${q('billing_lease')} SET ${q('Holder')} = NULL, ${q('LeaseUntil')} = ? WHERE ${q('BusinessId')} = ? AND ${q('Holder')} = ?`,
      [db.dateParam(new Date(0)), businessId, holder],
    );
  }

  /** The customer's business; null when it does not exist. */
  businessOfCustomer(id: number, tx?: Tx): Promise<number | null> {
    return customerBusiness(this.db, id, tx);
  }

  /** The business and rate (as stored) of each of the tax rates `ids` (non-empty) that exists. */
  async taxRates(ids: readonly number[], tx: Tx | undefined): Promise<Array<{ id: number; businessId: number; rate: unknown }>> {
    const { db } = this;
    const rows = await db.query(
      `SELECT ${db.id('Id')} AS id, ${db.id('BusinessId')} AS b, ${db.id('Rate')} AS r FROM ${db.tableOf(TaxRate)} WHERE ${db.id('Id')} IN (${ids.map(() => '?').join(', ')})`,
      [...ids],
      tx,
    );
    return rows.map((row) => ({ id: Number(row.id), businessId: Number(row.b), rate: row.r }));
  }

  /**
   * The customers' billing turns (docs/billing.md, "Exactly once"): BillingSequence + 1 for each, one UPDATE
   * for a batch; false when one of them does not exist.
   */
  async takeTurns(ids: readonly number[], tx: Tx): Promise<boolean> {
    const { db } = this;
    const sequence = db.id('BillingSequence');
    const result = await db.run(
      `UPDATE ${db.tableOf(Coworker)} SET ${sequence} = ${sequence} + 1 WHERE ${db.id('Id')} ${inList(ids)}`,
      [...ids],
      tx,
    );
    return result.affected === ids.length;
  }

  /** Of these customers, those a team's invoice concerns (TeamInvoicing.inTeamInvoices). */
  async inTeamInvoices(ids: readonly number[], tx: Tx | undefined): Promise<Set<number>> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const invoicedAsTeam = `t.${q('PayingMemberId')} IS NOT NULL AND t.${q('CreateSingleInvoiceForTeam')} = 1`;
    const rows = await db.query(
      `SELECT t.${q('PayingMemberId')} AS c FROM ${db.tableOf(Team)} t WHERE t.${q('PayingMemberId')} ${inList(ids)} AND ${invoicedAsTeam} ` +
        `UNION SELECT m.${q(TEAM_MEMBERS.column)} AS c FROM ${db.tableOf(Team)} t JOIN ${q(TEAM_MEMBERS.table)} m ON m.${q(TEAM_MEMBERS.on)} = t.${q('Id')} ` +
        `WHERE m.${q(TEAM_MEMBERS.column)} ${inList(ids)} AND ${invoicedAsTeam}`,
      [...ids, ...ids],
      tx,
    );
    return new Set(rows.map((row) => Number(row.c)));
  }

  /** The paying member that takes the customer's items (payingMemberSql); null when they are its own. */
  async payingMemberOf(customerId: number, tx: Tx | undefined): Promise<number | null> {
    const [row] = await this.db.query(`SELECT ${payingMemberSql(this.db, '?')} AS p`, [customerId], tx);
    return row?.p === null || row?.p === undefined ? null : Number(row.p);
  }

  /**
   * The other customers whose items `payerId` takes: members of the teams it pays for whose lowest-Id
   * such team is one it pays for. At most 1,000 members a team (TeamMembers' bound).
   */
  async membersPaidBy(payerId: number, tx: Tx | undefined): Promise<Array<{ id: number; fullName: string }>> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    // From the teams it pays for (indexed by PayingMemberId): a customer that pays for none costs one lookup.
    const rows = await db.query(
      `SELECT DISTINCT w.${q('Id')} AS id, w.${q('FullName')} AS name FROM ${db.tableOf(Team)} t ` +
        `JOIN ${q(TEAM_MEMBERS.table)} m ON m.${q(TEAM_MEMBERS.on)} = t.${q('Id')} JOIN ${db.tableOf(Coworker)} w ON w.${q('Id')} = m.${q(TEAM_MEMBERS.column)} ` +
        `WHERE t.${q('PayingMemberId')} = ? AND t.${q('CreateSingleInvoiceForTeam')} = 1 AND w.${q('Id')} <> ? AND ${payingMemberSql(db, `w.${q('Id')}`)} = ? ORDER BY w.${q('Id')}`,
      [payerId, payerId, payerId],
      tx,
    );
    return rows.map((row) => ({ id: Number(row.id), fullName: String(row.name) }));
  }

  /**
   * The customers' universal credits of their business with a balance, their columns as stored (`coworker`: the
   * customer's Id, when asked for several: a billing run's batch).
   */
  universalCredits(customerIds: readonly number[], businessId: number, tx: Tx | undefined): Promise<Array<Record<string, unknown>>> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const several = customerIds.length > 1;
    return db.query(
      `SELECT ${q('Id')} AS id, ${q('UniqueId')} AS uniqueId, ${q('Description')} AS description, ${q('RemainingCredit')} AS remaining, ${q('ValidFrom')} AS validFrom, ` +
        `${q('ExpireDate')} AS expires, ${q('ElegibleProducts')} AS products, ${q('ElegiblePasses')} AS passes, ${q('AppliesToCharges')} AS charges${several ? `, ${q('CoworkerId')} AS coworker` : ''} ` +
        `FROM ${db.tableOf(CoworkerBookingCredit)} WHERE ${q('CoworkerId')} ${several ? inList(customerIds) : '= ?'} AND ${q('BusinessId')} = ? AND ${q('IsUniversalCredit')} = 1 AND ${q('RemainingCredit')} > 0`,
      [...customerIds, businessId],
      tx,
    );
  }
}
