import { Injectable } from '@nestjs/common';
import type { LocalDate } from '@js-joda/core';
import { Database } from '../../persistence/database.js';
import type { Principal } from '../../platform/principal.js';
import { parseDbDateTime, toWire } from '../../records/wire-values.js';
import { CoworkerBookingCreditUseHistoriesService } from '../coworker-booking-credit-use-histories/coworker-booking-credit-use-histories.service.js';
import { spendingOrder, type Spend, type SpendableCredit } from '../coworker-booking-credit-use-histories/spend-rules.js';
import { creditApplies, type CreditUse, type Eligibility } from '../coworker-booking-credits/credit-rules.js';
import type { BilledCustomer } from '../due-items/due-items.js';
import { fromUnits, taxOf, toUnits, wholeCentsOf, type Units } from '../../kernel/money.js';
import { atMidnight } from '../due-items/periods.js';
import type { PricedLine } from './invoice-pricing.js';
import { BillingRunsRepository } from './billing-runs.repository.js';
import type { Tx } from '../../persistence/tx.js';

/** A line as a run plans it: its wire fields and what the run computes with (never on the wire). */
export interface PlannedLine extends PricedLine {
  /** BilledItemKey (docs/billing.md "Exactly once"); null for a credit line. */
  key: string | null;
  subTotal: Units;
  tax: Units;
  rate: Units;
  periodFrom: LocalDate;
  creditUse?: CreditUse;
  /** Counted in the invoice's SubscriptionAmount (docs/billing.md "SubscriptionAmount"); a credit line as the line it pays. */
  subscription: boolean;
  /** What credits paid of it, and the spends that paid it (one use-history record each). */
  credited: Units;
  spends: Spend[];
}

/** A universal credit of the customer, as read when the run began; `remaining` follows the run's spends. */
interface UniversalCredit extends SpendableCredit {
  UniqueId: string;
  Description: string;
  validFrom: number | null;
  eligibility: Eligibility;
}

/** The customer's credits a run may spend, in spending order. */
export type SpendingCredits = UniversalCredit[];

/** The credits a customer's lines may spend (UniversalCredits.spendable, or a batch's spendableInBatch). */
export type Spendable = (customer: BilledCustomer, lines: readonly { creditUse?: CreditUse }[]) => Promise<SpendingCredits>;

/** The line's wire fields only: what an invoice line holds and a preview shows. */
export function wireLine(line: PlannedLine): PricedLine {
  const {
    key: _k,
    subTotal: _s,
    tax: _t,
    rate: _r,
    periodFrom: _p,
    creditUse: _c,
    subscription: _b,
    credited: _d,
    spends: _x,
    ...fields
  } = line;
  return fields;
}

/**
 * Universal credits paying invoice lines in a billing run (docs/billing.md "Universal credits", docs/api.md
 * §13.1): lines in invoice order; for each line that credits may pay (its `creditUse`), the customer's
 * universal credits of the invoice's business valid on its PeriodFrom that apply to it, earliest expiry
 * first, each paying up to what is left of its SubTotal. Each spend is a credit line right after the line.
 * In a run each spend is the conditional UPDATE of bookings' spends (takeFrom: it never takes a credit
 * below 0, whatever spends at once), inside the customer's transaction; a preview spends nothing.
 */
@Injectable()
export class UniversalCredits {
  private readonly rows = new BillingRunsRepository(this.db);

  constructor(
    private readonly db: Database,
    private readonly uses: CoworkerBookingCreditUseHistoriesService,
  ) {}

  /** The customer's universal credits with a balance, in spending order (none read when no line could use them). */
  async spendable(customer: BilledCustomer, lines: readonly { creditUse?: CreditUse }[], tx: Tx | undefined): Promise<SpendingCredits> {
    if (!lines.some((line) => line.creditUse)) return [];
    return spendingCredits(await this.rows.universalCredits([customer.id], customer.businessId, tx));
  }

  /**
   * `spendable` for the customers of a batch of one business (`customerIds`, a billing run's: docs/billing.md
   * "Exactly once"): the first customer with a line credits could pay reads the credits of all of them, by one
   * statement; each customer then gets its own. A customer's credits are its own: another's spends leave them as read.
   */
  spendableInBatch(customerIds: readonly number[], businessId: number, tx: Tx): Spendable {
    let read: Promise<Map<number, Array<Record<string, unknown>>>> | undefined;
    return async (customer, lines) => {
      if (!lines.some((line) => line.creditUse)) return [];
      read ??= this.rows.universalCredits(customerIds, businessId, tx).then((rows) => {
        const byCustomer = new Map<number, Array<Record<string, unknown>>>();
        for (const row of rows) {
          const id = customerIds.length > 1 ? Number(row.coworker) : customerIds[0];
          const own = byCustomer.get(id);
          if (own) own.push(row);
          else byCustomer.set(id, [row]);
        }
        return byCustomer;
      });
      return spendingCredits((await read).get(customer.id) ?? []);
    };
  }

  /**
   * The lines with the credit lines of what `credits` pay of them, numbered again. Spends with
   * `tx` (a run), else only plans (a preview); `credits` keep what is left for the next invoice.
   */
  async pay(
    lines: readonly PlannedLine[],
    credits: SpendingCredits,
    tx: Tx | undefined,
    actor: Principal | undefined,
  ): Promise<PlannedLine[]> {
    if (!credits.length) return [...lines];
    const paid: PlannedLine[] = [];
    for (const line of lines) {
      paid.push(line);
      const use = line.creditUse;
      if (!use) continue;
      let left = line.subTotal;
      for (const credit of credits) {
        if (left <= 0n) break;
        if (credit.remaining <= 0n || !validOn(credit, line.periodFrom) || !creditApplies(credit.eligibility, use)) continue;
        // Whole cents only: a credit line moves money (docs/api.md §9.1); a balance's sub-cent rest stays on the credit.
        const wanted = wholeCentsOf(credit.remaining < left ? credit.remaining : left);
        if (wanted <= 0n) continue;
        const units = tx ? await this.uses.takeFrom(tx, actor, credit, wanted, true) : wanted;
        // Less than wanted: another spend took the rest meanwhile; nothing is left of the credit.
        credit.remaining = units < wanted ? 0n : credit.remaining - units;
        if (units <= 0n) continue;
        left -= units;
        line.spends.push({ Id: credit.Id, units });
        paid.push(creditLine(line, credit, units));
      }
      line.credited = line.subTotal - left;
      line.CreditAmount = fromUnits(line.credited);
    }
    paid.forEach((line, index) => {
      line.Position = index + 1;
    });
    return paid;
  }

  /** The use-history records of the spends paying a line, once it has its Id. */
  async recordUses(tx: Tx, actor: Principal | undefined, lineId: number, coworkerId: number, line: PlannedLine): Promise<void> {
    if (line.spends.length) await this.uses.recordUses(tx, actor, { lineId }, coworkerId, line.spends);
  }
}

/** Universal credits as stored, in spending order. */
function spendingCredits(rows: ReadonlyArray<Record<string, unknown>>): SpendingCredits {
  return spendingOrder(
    rows.map((row): UniversalCredit => ({
      Id: Number(row.id),
      UniqueId: String(row.uniqueId),
      Description: String(row.description ?? ''),
      remaining: toUnits(row.remaining),
      expires: parseDbDateTime(row.expires),
      validFrom: parseDbDateTime(row.validFrom),
      eligibility: {
        ElegibleProducts: toWire('idList', row.products) as number[],
        ElegiblePasses: toWire('idList', row.passes) as number[],
        AppliesToCharges: toWire('bool', row.charges) as boolean,
        IsUniversalCredit: true,
        ElegibleResourceTypes: [],
        EventCategories: [],
        CaneBeUsedForBookings: false,
        CaneBeUsedForEvents: false,
      },
    })),
  );
}

/** Valid on the line's date D: ValidFrom null or before the end of D, ExpireDate null or after its start (00:00Z). */
function validOn(credit: UniversalCredit, day: LocalDate): boolean {
  const start = atMidnight(day).getTime();
  const end = atMidnight(day.plusDays(1)).getTime();
  return (credit.validFrom === null || credit.validFrom < end) && (credit.expires === null || credit.expires > start);
}

/** The credit line of a spend (docs/api.md §13.1): −amount before tax, the paid line's tax rate and period. */
function creditLine(line: PlannedLine, credit: UniversalCredit, units: Units): PlannedLine {
  const subTotal = -units;
  const tax = taxOf(subTotal, line.rate);
  return {
    Description: `Credit: ${credit.Description}`,
    Quantity: 1,
    UnitPrice: fromUnits(subTotal),
    SubTotal: fromUnits(subTotal),
    TaxRateId: line.TaxRateId,
    TaxRate: line.TaxRate,
    TaxAmount: fromUnits(tax),
    TotalAmount: fromUnits(subTotal + tax),
    PeriodFrom: line.PeriodFrom,
    PeriodTo: line.PeriodTo,
    Position: 0,
    CoworkerContractUniqueId: null,
    ContractProductUniqueId: null,
    CoworkerProductUniqueId: null,
    BookingUniqueId: null,
    CoworkerTimePassUniqueId: null,
    CoworkerChargeUniqueId: null,
    CoworkerBookingCreditUniqueId: credit.UniqueId,
    CreditAmount: 0,
    key: null,
    subTotal,
    tax,
    rate: line.rate,
    periodFrom: line.periodFrom,
    subscription: line.subscription,
    credited: 0n,
    spends: [],
  };
}
