// The pure rules of booking credits: when a released credit expires, and what it can pay for
// (docs/api.md §9.7 rules 1–3, docs/api.md §3.1). No I/O here, so every rule is unit-tested on its own.

import { toUnits, unitsText } from '../../kernel/money.js';

/** ExpirationType (docs/api.md §3): the unit of ExpiresIn. 0 or null: none (legacy fields apply). */
export const ExpirationType = { PricePlan: 1, Day: 2, Week: 3, Month: 4, Year: 5, LastDayOfMonth: 6 } as const;

export interface ExpiryRule {
  ExpirationType: number | null;
  ExpiresIn: number | null;
  ExpireTimeInMonths: number | null;
  ExpireTimeInWeeks: number | null;
}

const DAY_MS = 86_400_000;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** Adds calendar months; a day past the end of the target month becomes its last day (31 Jan + 1 = 28/29 Feb). */
export function addMonths(date: Date, months: number): Date {
  const total = date.getUTCMonth() + months;
  const year = date.getUTCFullYear() + Math.floor(total / 12);
  const month = ((total % 12) + 12) % 12;
  const day = Math.min(date.getUTCDate(), daysInMonth(year, month));
  return new Date(Date.UTC(year, month, day, date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds()));
}

/** The last second of the month `months` months after the date's month. */
export function endOfMonth(date: Date, months: number): Date {
  const total = date.getUTCMonth() + months;
  const year = date.getUTCFullYear() + Math.floor(total / 12);
  const month = ((total % 12) + 12) % 12;
  return new Date(Date.UTC(year, month, daysInMonth(year, month), 23, 59, 59));
}

/**
 * When a credit released at `validFrom` expires, or null when it never does. `nextRenewal` is the
 * customer's next plan renewal, used by PricePlan credits (none: no expiry).
 */
export function expiryDate(rule: ExpiryRule, validFrom: Date, nextRenewal: Date | null): Date | null {
  const n = rule.ExpiresIn;
  switch (rule.ExpirationType) {
    case ExpirationType.PricePlan:
      return nextRenewal;
    case ExpirationType.Day:
      return n === null ? null : new Date(validFrom.getTime() + n * DAY_MS);
    case ExpirationType.Week:
      return n === null ? null : new Date(validFrom.getTime() + n * 7 * DAY_MS);
    case ExpirationType.Month:
      return n === null ? null : addMonths(validFrom, n);
    case ExpirationType.Year:
      return n === null ? null : addMonths(validFrom, 12 * n);
    case ExpirationType.LastDayOfMonth:
      return endOfMonth(validFrom, n ?? 0);
    default:
      // No ExpirationType: the legacy fields, months before weeks.
      if (rule.ExpireTimeInMonths) return addMonths(validFrom, rule.ExpireTimeInMonths);
      if (rule.ExpireTimeInWeeks) return new Date(validFrom.getTime() + rule.ExpireTimeInWeeks * 7 * DAY_MS);
      return null;
  }
}

/** The term of a customer's main contract, as far as its renewals go. */
export interface PlanTerm {
  StartDate: Date;
  CancellationDate: Date | null;
}

/**
 * The customer's next plan renewal after `after`, for PricePlan credits: plans renew monthly on the
 * day of the month their main contract started (a day the month lacks is its last day: a contract
 * from 31 January renews on 28/29 February, then on 31 March), at the start time of day. A contract
 * cancelled before that renewal ends the plan at its cancellation, and the credit with it. Without a
 * contract there is no renewal: the credit does not expire.
 */
export function nextRenewal(plan: PlanTerm | null, after: Date): Date | null {
  if (!plan) return null;
  const start = plan.StartDate;
  // Months between the start and `after`, give or take one; step to the first renewal after `after`.
  let months = Math.max(1, (after.getUTCFullYear() - start.getUTCFullYear()) * 12 + after.getUTCMonth() - start.getUTCMonth());
  while (months > 1 && addMonths(start, months - 1).getTime() > after.getTime()) months--;
  while (addMonths(start, months).getTime() <= after.getTime()) months++;
  const renewal = addMonths(start, months);
  return plan.CancellationDate && plan.CancellationDate.getTime() < renewal.getTime() ? plan.CancellationDate : renewal;
}

/**
 * A credit released for `quantity` units: `amount` × `quantity`, exactly, as decimal text with four
 * places ("10.5" × 3 = "31.5000"). Amounts come from decimal(18,4) columns, as numbers (SQLite) or
 * decimal text (MySQL); floating-point multiplication would turn 0.1 × 3 into 0.30000000000000004.
 */
export function releasedAmount(amount: number | string, quantity: number): string {
  if (!Number.isSafeInteger(quantity)) throw new Error(`Not a quantity: ${amount} × ${quantity}`);
  return unitsText(toUnits(amount) * BigInt(quantity));
}

export interface Eligibility {
  ElegibleResourceTypes: readonly number[];
  ElegibleProducts: readonly number[];
  ElegiblePasses: readonly number[];
  EventCategories: readonly number[];
  CaneBeUsedForBookings: boolean;
  CaneBeUsedForEvents: boolean;
  IsUniversalCredit: boolean;
  AppliesToCharges: boolean;
}

/** What a credit is asked to pay for. */
export type CreditUse =
  { resourceTypeId: number } | { eventCategoryId: number } | { productId: number } | { passId: number } | { charge: true };

/** Whether a credit can pay for the use (docs/api.md §9.7 rules 1–3, docs/api.md §3.1 "Applicable credits"). */
export function creditApplies(credit: Eligibility, use: CreditUse): boolean {
  if ('resourceTypeId' in use) {
    // Rule 2: an empty list means every resource type.
    return (
      credit.CaneBeUsedForBookings &&
      (credit.ElegibleResourceTypes.length === 0 || credit.ElegibleResourceTypes.includes(use.resourceTypeId))
    );
  }
  if ('eventCategoryId' in use) {
    // Rule 3: an empty list means every event.
    return credit.CaneBeUsedForEvents && (credit.EventCategories.length === 0 || credit.EventCategories.includes(use.eventCategoryId));
  }
  if (!credit.IsUniversalCredit) return false;
  // Rule 1: a universal credit with no restriction at all applies to every product, pass and charge.
  const unrestricted = credit.ElegibleProducts.length === 0 && credit.ElegiblePasses.length === 0 && !credit.AppliesToCharges;
  if (unrestricted) return true;
  if ('productId' in use) return credit.ElegibleProducts.includes(use.productId);
  if ('passId' in use) return credit.ElegiblePasses.includes(use.passId);
  return credit.AppliesToCharges;
}
