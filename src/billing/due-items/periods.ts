import { ChronoUnit, LocalDate } from '@js-joda/core';
import { prorate, roundToCents, type Units } from '../../kernel/money.js';

// What is due, as pure functions of calendar dates (docs/billing.md): contract
// periods, occurrences of recurring sales, pro-rating. Dates are js-joda LocalDates (calendar dates in
// UTC); no clock is read here: "today" and `Until` are arguments.

/** A stored date-time's calendar date in UTC. */
export function utcDate(value: Date | string): LocalDate {
  const date = typeof value === 'string' ? new Date(value) : value;
  return LocalDate.of(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate());
}

/** A calendar date as the Date at its midnight UTC, as periods are stored. */
export function atMidnight(date: LocalDate): Date {
  return new Date(Date.UTC(date.year(), date.monthValue() - 1, date.dayOfMonth()));
}

const max = (a: LocalDate, b: LocalDate) => (a.isAfter(b) ? a : b);
const daysIn = (from: LocalDate, to: LocalDate) => from.until(to, ChronoUnit.DAYS) + 1;

/** The billing day a contract gets unless given: the day of its start, 28 when that is later. */
export function defaultBillingDay(start: LocalDate): number {
  return Math.min(start.dayOfMonth(), 28);
}

/** The first billing day on or after `start`. */
export function firstBillingDay(start: LocalDate, billingDay: number): LocalDate {
  const sameMonth = start.withDayOfMonth(billingDay);
  return sameMonth.isBefore(start) ? sameMonth.plusMonths(1) : sameMonth;
}

/** A contract as its periods need it. */
export interface ContractTerms {
  start: LocalDate;
  /** The contract's end: the first day it no longer runs (null: open-ended). */
  cancellation: LocalDate | null;
  /** 1 to 28. */
  billingDay: number;
  /** Months per period, 1 to 12 (the tariff's InvoiceEvery). */
  invoiceEvery: number;
}

/** A period to bill: its dates (inclusive), and the days of the full period it is (part of). */
export interface BillingPeriod {
  from: LocalDate;
  to: LocalDate;
  days: number;
  fullDays: number;
}

/**
 * The periods of a contract due up to `until` and not billed yet (those starting on or after
 * `billedUntil`, the InvoicedPeriod: exclusive end of what was billed), in order:
 * - full periods run `invoiceEvery` months from the first billing day on or after the start;
 * - a start that is not a billing day makes a first short period up to the day before that billing
 *   day, part of the full period of `invoiceEvery` months that ends there;
 * - a period is due when it starts on or before `until` and before the cancellation; the cancellation
 *   cuts the period it falls in, which then ends the day before it.
 * Made one at a time as they are read (docs/billing.md "Bounds"): a run takes at most its cap of them,
 * whatever the dates stored, so a caller never holds more than it bills.
 */
export function* contractPeriods(
  terms: ContractTerms,
  billedUntil: LocalDate | null,
  until: LocalDate,
): Generator<BillingPeriod, void, undefined> {
  const { start, cancellation, billingDay, invoiceEvery } = terms;
  const first = firstBillingDay(start, billingDay);
  // The period of these dates: undefined when it is past what is due (the end), null when billed already.
  const periodOf = (fullFrom: LocalDate, fullTo: LocalDate, from: LocalDate): BillingPeriod | null | undefined => {
    if (from.isAfter(until) || (cancellation && !from.isBefore(cancellation))) return undefined;
    const end = cancellation && !cancellation.isAfter(fullTo) ? cancellation.minusDays(1) : fullTo;
    if (billedUntil && billedUntil.isAfter(end)) return null;
    const begin = billedUntil ? max(from, billedUntil) : from;
    if (begin.isAfter(until)) return undefined;
    return { from: begin, to: end, days: daysIn(begin, end), fullDays: daysIn(fullFrom, fullTo) };
  };
  if (start.isBefore(first)) {
    const short = periodOf(first.minusMonths(invoiceEvery), first.minusDays(1), start);
    if (short === undefined) return;
    if (short) yield short;
  }
  // Periods wholly billed are skipped without walking them one by one.
  let k = 0;
  if (billedUntil && billedUntil.isAfter(first))
    k = Math.max(0, Math.floor(first.until(billedUntil, ChronoUnit.MONTHS) / invoiceEvery) - 1);
  for (; ; k++) {
    const from = first.plusMonths(k * invoiceEvery);
    const period = periodOf(from, first.plusMonths((k + 1) * invoiceEvery).minusDays(1), from);
    if (period === undefined) return;
    if (period) yield period;
  }
}

/**
 * A period's unit price: `price` rounded to cents, or with pro-rating, for a period shorter than its
 * full period, `price × days ÷ full days` rounded (docs/billing.md: before quantities multiply it).
 */
export function periodUnitPrice(price: Units, period: BillingPeriod, proRating: boolean): Units {
  return proRating && period.days !== period.fullDays ? prorate(price, period.days, period.fullDays) : roundToCents(price);
}

/** eRecurrentChargePattern (docs/billing.md). */
export const RepeatCycle = { PricePlan: 1, Day: 2, Week: 3, Month: 4, Year: 5, LastDayOfMonth: 6 } as const;

/** A recurring sale's rule. */
export interface RepeatRule {
  cycle: number;
  /** Every `unit` cycles (≥ 1). */
  unit: number;
  from: LocalDate;
  /** Last day an occurrence may fall on (null: no end). */
  until: LocalDate | null;
}

/** An occurrence: its date, and the day before the next one. */
export interface Occurrence {
  from: LocalDate;
  to: LocalDate;
}

/** The n-th occurrence (from 0) of a Day/Week/Month/Year/LastDayOfMonth rule: anchored on the first, so month ends are kept. */
export function nthOccurrence(rule: RepeatRule, n: number): LocalDate {
  const step = n * rule.unit;
  switch (rule.cycle) {
    case RepeatCycle.Day:
      return rule.from.plusDays(step);
    case RepeatCycle.Week:
      return rule.from.plusWeeks(step);
    case RepeatCycle.Month:
      return rule.from.plusMonths(step);
    case RepeatCycle.Year:
      return rule.from.plusYears(step);
    case RepeatCycle.LastDayOfMonth: {
      const month = rule.from.withDayOfMonth(1).plusMonths(step);
      return month.withDayOfMonth(month.lengthOfMonth());
    }
    default:
      throw new Error(`Not a calendar cycle: ${rule.cycle}`);
  }
}

/**
 * The occurrences of a Day/Week/Month/Year/LastDayOfMonth rule not billed yet (on or after
 * `billedUntil`) dated on or before both `until` and the rule's own end, made one at a time as they
 * are read (docs/billing.md "Bounds").
 */
export function* occurrences(rule: RepeatRule, billedUntil: LocalDate | null, until: LocalDate): Generator<Occurrence, void, undefined> {
  const last = rule.until && rule.until.isBefore(until) ? rule.until : until;
  let n = 0;
  if (billedUntil && billedUntil.isAfter(rule.from)) {
    // Jump near the first unbilled one instead of walking from the start.
    const unit =
      rule.cycle === RepeatCycle.Day
        ? ChronoUnit.DAYS
        : rule.cycle === RepeatCycle.Week
          ? ChronoUnit.WEEKS
          : rule.cycle === RepeatCycle.Year
            ? ChronoUnit.YEARS
            : ChronoUnit.MONTHS;
    n = Math.max(0, Math.floor(rule.from.until(billedUntil, unit) / rule.unit) - 1);
  }
  for (let date = nthOccurrence(rule, n); !date.isAfter(last); date = nthOccurrence(rule, ++n)) {
    if (billedUntil && date.isBefore(billedUntil)) continue;
    yield { from: date, to: nthOccurrence(rule, n + 1).minusDays(1) };
  }
}

/**
 * The occurrences of a PricePlan rule: with each period of the customer's main contract (its periods,
 * billed or not, that start on or after the rule's start), not billed yet, dated on or before both
 * `until` and the rule's end; each runs to the end of its period. Made one at a time as they are read.
 */
export function* pricePlanOccurrences(
  rule: RepeatRule,
  contract: ContractTerms,
  billedUntil: LocalDate | null,
  until: LocalDate,
): Generator<Occurrence, void, undefined> {
  const last = rule.until && rule.until.isBefore(until) ? rule.until : until;
  const since = billedUntil && billedUntil.isAfter(rule.from) ? billedUntil : rule.from;
  for (const period of contractPeriods(contract, null, last)) {
    if (!period.from.isBefore(since)) yield { from: period.from, to: period.to };
  }
}
