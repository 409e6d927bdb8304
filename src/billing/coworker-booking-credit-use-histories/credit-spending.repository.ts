import { Injectable } from '@nestjs/common';
import { Database } from '../../persistence/database.js';
import { toUnits, unitsText } from '../../kernel/money.js';
import { parseDbDateTime, toWire } from '../../records/wire-values.js';
import { CoworkerBookingCredit } from '../coworker-booking-credits/coworker-booking-credit.entity.js';
import { creditApplies, type Eligibility } from '../coworker-booking-credits/credit-rules.js';
import type { CreditUses, UsesOfCredit } from '../coworker-booking-credits/credit-uses.js';
import type { SpendableCredit } from './spend-rules.js';
import { CoworkerBookingCreditUseHistory } from './coworker-booking-credit-use-history.entity.js';
import { CoworkerInvoiceLine } from '../coworker-invoice-lines/coworker-invoice-line.entity.js';
import type { Tx } from '../../persistence/tx.js';

/** What a booking's credits are looked up by (docs/bookings.md "Credits"). */
export interface CreditQuestion {
  coworkerId: number;
  /** The resource's business: only its credits pay. */
  businessId: number;
  resourceTypeId: number;
  /** The booking's FromTime: credits valid then. */
  at: Date;
}

/** An unreturned use of a credit by a booking or on an invoice line. */
export interface CreditUse {
  Id: number;
  CoworkerBookingCreditId: number;
  units: bigint;
}

/**
 * The SQL of spending booking credits and giving them back, inside the booking's transaction. A spend
 * is one conditional UPDATE that takes the amount only while that much is left, so RemainingCredit
 * never drops below zero whatever runs at once (the affected-row count says whether it took).
 */
@Injectable()
export class CreditSpendingRepository implements CreditUses {
  constructor(private readonly db: Database) {}

  /** The customer's credits of the business that can pay for a booking of the resource type at `at`, with a balance. */
  async applicable(question: CreditQuestion, tx?: Tx): Promise<SpendableCredit[]> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const at = db.dateParam(question.at);
    const rows = await db.query(
      `SELECT ${q('Id')} AS id, ${q('RemainingCredit')} AS remaining, ${q('ExpireDate')} AS expires, ${q('ElegibleResourceTypes')} AS types ` +
        `FROM ${db.tableOf(CoworkerBookingCredit)} WHERE ${q('CoworkerId')} = ? AND ${q('BusinessId')} = ? AND ${q('CaneBeUsedForBookings')} = 1 ` +
        `AND ${q('RemainingCredit')} > 0 AND (${q('ValidFrom')} IS NULL OR ${q('ValidFrom')} <= ?) AND (${q('ExpireDate')} IS NULL OR ${q('ExpireDate')} > ?)`,
      [question.coworkerId, question.businessId, at, at],
      tx,
    );
    return rows
      .filter((row) => creditApplies(this.bookingEligibility(row.types), { resourceTypeId: question.resourceTypeId }))
      .map((row) => ({
        Id: Number(row.id),
        remaining: toUnits(row.remaining),
        expires: parseDbDateTime(row.expires),
      }));
  }

  /** What is left of a credit now (0 when it is gone). */
  async remaining(creditId: number, tx: Tx): Promise<bigint> {
    const { db } = this;
    const [row] = await db.query(
      `SELECT ${db.id('RemainingCredit')} AS r FROM ${db.tableOf(CoworkerBookingCredit)} WHERE ${db.id('Id')} = ?`,
      [creditId],
      tx,
    );
    return row ? toUnits(row.r) : 0n;
  }

  /** Takes `units` from the credit only while at least that much is left; whether it took. */
  async take(creditId: number, units: bigint, tx: Tx): Promise<boolean> {
    const { db } = this;
    const remaining = db.id('RemainingCredit');
    const amount = this.amountSql();
    // On Galera two nodes' spends could take from one row version: the turn keeps one (Database.runGuarded).
    return db.runGuarded(
      `UPDATE ${db.tableOf(CoworkerBookingCredit)} SET ${remaining} = ${this.exact(`${remaining} - ${amount}`)}, ${db.id('Version')} = ${db.id('Version')} + 1 ` +
        `WHERE ${db.id('Id')} = ? AND ${remaining} >= ${amount}`,
      [this.amount(units), creditId, this.amount(units)],
      tx,
      { entity: CoworkerBookingCredit, id: creditId },
    );
  }

  /** Gives `units` back to the credit (when it still exists). */
  async giveBack(creditId: number, units: bigint, tx: Tx): Promise<void> {
    const { db } = this;
    const remaining = db.id('RemainingCredit');
    await db.query(
      `UPDATE ${db.tableOf(CoworkerBookingCredit)} SET ${remaining} = ${this.exact(`${remaining} + ${this.amountSql()}`)}, ${db.id('Version')} = ${db.id('Version')} + 1 WHERE ${db.id('Id')} = ?`,
      [this.amount(units), creditId],
      tx,
    );
  }

  /**
   * The uses of a credit (docs/bookings.md "Credits keep their invariant"): how many it has, and Σ CreditUsed
   * of those not returned, as units. The credit's row is locked first on MySQL (SQLite has one writer),
   * so a spend or return of it waits until the caller's transaction ends; under READ COMMITTED the sum
   * then counts every spend committed before.
   */
  async usesOf(creditId: number, tx: Tx): Promise<UsesOfCredit> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    if (db.isMySql)
      await db.query(`SELECT ${q('Id')} FROM ${db.tableOf(CoworkerBookingCredit)} WHERE ${q('Id')} = ? FOR UPDATE`, [creditId], tx);
    const rows = await db.query<{ used: number | string; returned: unknown }>(
      `SELECT ${q('CreditUsed')} AS used, ${q('Returned')} AS returned FROM ${db.tableOf(CoworkerBookingCreditUseHistory)} WHERE ${q('CoworkerBookingCreditId')} = ?`,
      [creditId],
      tx,
    );
    const unreturned = rows.filter((row) => !toWire('bool', row.returned)).reduce((total, row) => total + toUnits(row.used), 0n);
    return { count: rows.length, unreturned };
  }

  /** The unreturned uses of credits by a booking, in the order they were made. */
  async unreturned(bookingId: number, tx: Tx): Promise<CreditUse[]> {
    return this.unreturnedWhere(`${this.db.id('BookingId')} = ?`, [bookingId], tx);
  }

  /** The unreturned uses of credits on the lines of an invoice (docs/billing.md "Universal credits"), in the order they were made. */
  async unreturnedOnInvoice(invoiceId: number, tx: Tx): Promise<CreditUse[]> {
    const { db } = this;
    const lines = `SELECT ${db.id('Id')} FROM ${db.tableOf(CoworkerInvoiceLine)} WHERE ${db.id('CoworkerInvoiceId')} = ?`;
    return this.unreturnedWhere(`${db.id('CoworkerInvoiceLineId')} IN (${lines})`, [invoiceId], tx);
  }

  private async unreturnedWhere(condition: string, parameters: unknown[], tx: Tx): Promise<CreditUse[]> {
    const { db } = this;
    const rows = await db.query(
      `SELECT ${db.id('Id')} AS id, ${db.id('CoworkerBookingCreditId')} AS credit, ${db.id('CreditUsed')} AS used FROM ${db.tableOf(CoworkerBookingCreditUseHistory)} ` +
        `WHERE ${condition} AND ${db.id('Returned')} = 0 ORDER BY ${db.id('Id')}`,
      parameters,
      tx,
    );
    return rows.map((row) => ({ Id: Number(row.id), CoworkerBookingCreditId: Number(row.credit), units: toUnits(row.used) }));
  }

  /** A bound amount: exact decimal text on MySQL, the number SQLite stores for it on SQLite. */
  private amount(units: bigint): string | number {
    return this.db.isMySql ? unitsText(units) : Number(unitsText(units));
  }

  private amountSql(): string {
    return this.db.isMySql ? 'CAST(? AS DECIMAL(18,4))' : '?';
  }

  /** MySQL's DECIMAL arithmetic is exact; SQLite's REAL result is rounded to the four places it stores. */
  private exact(expression: string): string {
    return this.db.isMySql ? expression : `ROUND(${expression}, 4)`;
  }

  private bookingEligibility(types: unknown): Eligibility {
    return {
      ElegibleResourceTypes: toWire('idList', types) as number[],
      ElegibleProducts: [],
      ElegiblePasses: [],
      EventCategories: [],
      CaneBeUsedForBookings: true,
      CaneBeUsedForEvents: false,
      IsUniversalCredit: false,
      AppliesToCharges: false,
    };
  }
}
