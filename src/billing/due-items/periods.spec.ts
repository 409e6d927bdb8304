import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LocalDate } from '@js-joda/core';
import { fromUnits, toUnits } from '../../kernel/money.js';
import {
  contractPeriods,
  defaultBillingDay,
  firstBillingDay,
  occurrences,
  periodUnitPrice,
  pricePlanOccurrences,
  RepeatCycle,
  type BillingPeriod,
  type ContractTerms,
} from './periods.js';

const d = (text: string) => LocalDate.parse(text);
const shown = (periods: Iterable<{ from: LocalDate; to: LocalDate }>) => [...periods].map((p) => `${p.from}..${p.to}`);
const terms = (start: string, billingDay: number, invoiceEvery = 1, cancellation: string | null = null): ContractTerms => ({
  start: d(start),
  billingDay,
  invoiceEvery,
  cancellation: cancellation ? d(cancellation) : null,
});
const price = (amount: number, period: BillingPeriod, proRating = true) => fromUnits(periodUnitPrice(toUnits(amount), period, proRating));

// The generators, read to the end (their laziness is tested on its own below).
const periodsOf = (...args: Parameters<typeof contractPeriods>) => [...contractPeriods(...args)];
const occurrencesOf = (...args: Parameters<typeof occurrences>) => [...occurrences(...args)];
const planOccurrencesOf = (...args: Parameters<typeof pricePlanOccurrences>) => [...pricePlanOccurrences(...args)];

describe('contract periods (docs/billing.md)', () => {
  it('billing day defaults to the start day, 28 when later; the first billing day is on or after the start', () => {
    assert.equal(defaultBillingDay(d('2025-01-16')), 16);
    assert.equal(defaultBillingDay(d('2025-01-31')), 28);
    assert.equal(firstBillingDay(d('2025-01-16'), 1).toString(), '2025-02-01');
    assert.equal(firstBillingDay(d('2025-01-16'), 16).toString(), '2025-01-16');
    assert.equal(firstBillingDay(d('2025-12-20'), 5).toString(), '2026-01-05');
  });

  it('a contract from the 1st with billing day 1: 1 Jan–31 Jan, 1 Feb–28 Feb, 1 Mar–31 Mar at the full price', () => {
    const periods = periodsOf(terms('2025-01-01', 1), null, d('2025-03-01'));
    assert.deepEqual(shown(periods), ['2025-01-01..2025-01-31', '2025-02-01..2025-02-28', '2025-03-01..2025-03-31']);
    assert.deepEqual(
      periods.map((p) => price(100, p)),
      [100, 100, 100],
    );
  });

  it('from the 15th with billing day 15: 15 Jan–14 Feb, 15 Feb–14 Mar', () => {
    assert.deepEqual(shown(periodsOf(terms('2025-01-15', 15), null, d('2025-02-15'))), [
      '2025-01-15..2025-02-14',
      '2025-02-15..2025-03-14',
    ]);
  });

  it('a contract from the 16th with billing day 1 pro-rates 16 Jan–31 Jan as 100 × 16/31 = 51.61, then bills 1 Feb–28 Feb in full', () => {
    const periods = periodsOf(terms('2025-01-16', 1), null, d('2025-02-10'));
    assert.deepEqual(shown(periods), ['2025-01-16..2025-01-31', '2025-02-01..2025-02-28']);
    assert.deepEqual([periods[0].days, periods[0].fullDays], [16, 31]);
    assert.equal(price(100, periods[0]), 51.61);
    assert.equal(price(100, periods[0], false), 100);
    assert.equal(price(100, periods[1]), 100);
  });

  it('a contract from 20 Feb with billing day 1 pro-rates 20 Feb–28 Feb as 9/28 of 1 Feb–28 Feb (250 × 9/28 = 80.36)', () => {
    const [first] = periodsOf(terms('2025-02-20', 1), null, d('2025-02-20'));
    assert.deepEqual([first.days, first.fullDays], [9, 28]);
    assert.equal(price(250, first), 80.36);
  });

  it('quarterly (InvoiceEvery 3) from 10 Feb with billing day 1: 10 Feb–28 Feb is 19 of the 90 days of 1 Dec–28 Feb; then 1 Mar–31 May, 1 Jun–31 Aug', () => {
    const periods = periodsOf(terms('2025-02-10', 1, 3), null, d('2025-06-01'));
    assert.deepEqual(shown(periods), ['2025-02-10..2025-02-28', '2025-03-01..2025-05-31', '2025-06-01..2025-08-31']);
    assert.deepEqual([periods[0].days, periods[0].fullDays], [19, 90]);
    assert.equal(price(300, periods[0]), 63.33);
    assert.equal(price(300, periods[1]), 300);
  });

  it('a cancellation on 10 Mar inside 1 Mar–31 Mar ends it on 9 Mar, 9/31 of the price (100 → 29.03); nothing is due after it', () => {
    const periods = periodsOf(terms('2025-01-01', 1, 1, '2025-03-10'), null, d('2025-12-31'));
    assert.deepEqual(shown(periods), ['2025-01-01..2025-01-31', '2025-02-01..2025-02-28', '2025-03-01..2025-03-09']);
    assert.equal(price(100, periods[2]), 29.03);
    assert.deepEqual(periodsOf(terms('2025-01-01', 1, 1, '2025-01-01'), null, d('2025-12-31')), []);
  });

  it('a cancellation on a billing day cuts nothing: the period before it is whole', () => {
    assert.deepEqual(shown(periodsOf(terms('2025-01-01', 1, 1, '2025-03-01'), null, d('2025-12-31'))), [
      '2025-01-01..2025-01-31',
      '2025-02-01..2025-02-28',
    ]);
  });

  it('a period is due when it starts on or before Until; InvoicedPeriod skips what was billed, also far into the contract', () => {
    assert.deepEqual(shown(periodsOf(terms('2025-01-01', 1), null, d('2024-12-31'))), []);
    assert.deepEqual(shown(periodsOf(terms('2025-01-01', 1), d('2025-03-01'), d('2025-04-01'))), [
      '2025-03-01..2025-03-31',
      '2025-04-01..2025-04-30',
    ]);
    assert.deepEqual(shown(periodsOf(terms('2000-01-16', 1, 3), d('2030-02-01'), d('2030-05-01'))), [
      '2030-02-01..2030-04-30',
      '2030-05-01..2030-07-31',
    ]);
    assert.deepEqual(periodsOf(terms('2025-01-01', 1), d('2025-04-01'), d('2025-03-31')), []);
  });

  it('what a cancellation left unbilled is billed when the cancellation is lifted: 15 Mar–31 Mar after 1 Mar–14 Mar', () => {
    const [rest] = periodsOf(terms('2025-01-01', 1), d('2025-03-15'), d('2025-03-20'));
    assert.deepEqual(shown([rest]), ['2025-03-15..2025-03-31']);
    assert.equal(price(100, rest), 54.84);
  });
});

describe('recurring sales (docs/billing.md, 4.)', () => {
  const rule = (cycle: number, from: string, unit = 1, until: string | null = null) => ({
    cycle,
    unit,
    from: d(from),
    until: until ? d(until) : null,
  });

  it('monthly from 31 Jan keeps to month ends: 31 Jan, 28 Feb, 31 Mar; each runs to the day before the next', () => {
    assert.deepEqual(shown(occurrencesOf(rule(RepeatCycle.Month, '2025-01-31'), null, d('2025-03-31'))), [
      '2025-01-31..2025-02-27',
      '2025-02-28..2025-03-30',
      '2025-03-31..2025-04-29',
    ]);
  });

  it('LastDayOfMonth from 10 Jan every 2 months: 31 Jan, 31 Mar, 31 May (the first is the last day of the start month)', () => {
    assert.deepEqual(shown(occurrencesOf(rule(RepeatCycle.LastDayOfMonth, '2025-01-10', 2), null, d('2025-06-30'))), [
      '2025-01-31..2025-03-30',
      '2025-03-31..2025-05-30',
      '2025-05-31..2025-07-30',
    ]);
    assert.deepEqual(shown(occurrencesOf(rule(RepeatCycle.LastDayOfMonth, '2024-02-01'), null, d('2024-02-29'))), [
      '2024-02-29..2024-03-30',
    ]);
  });

  it('every 10 days, every 2 weeks, yearly on 29 Feb; up to RepeatUntil and Until, after InvoicedPeriod', () => {
    assert.deepEqual(shown(occurrencesOf(rule(RepeatCycle.Day, '2025-01-01', 10), null, d('2025-01-25'))), [
      '2025-01-01..2025-01-10',
      '2025-01-11..2025-01-20',
      '2025-01-21..2025-01-30',
    ]);
    assert.deepEqual(shown(occurrencesOf(rule(RepeatCycle.Week, '2025-01-06', 2, '2025-01-25'), null, d('2025-12-31'))), [
      '2025-01-06..2025-01-19',
      '2025-01-20..2025-02-02',
    ]);
    assert.deepEqual(shown(occurrencesOf(rule(RepeatCycle.Year, '2024-02-29'), null, d('2026-03-01'))), [
      '2024-02-29..2025-02-27',
      '2025-02-28..2026-02-27',
      '2026-02-28..2027-02-27',
    ]);
    assert.deepEqual(shown(occurrencesOf(rule(RepeatCycle.Day, '2025-01-01', 10), d('2025-01-11'), d('2025-01-25'))), [
      '2025-01-11..2025-01-20',
      '2025-01-21..2025-01-30',
    ]);
  });

  it("PricePlan follows the main contract's periods from RepeatFrom: a contract from the 16th with billing day 1 gives 16 Jan, 1 Feb, 1 Mar", () => {
    const plan = terms('2025-01-16', 1);
    assert.deepEqual(shown(planOccurrencesOf(rule(RepeatCycle.PricePlan, '2025-01-01'), plan, null, d('2025-03-15'))), [
      '2025-01-16..2025-01-31',
      '2025-02-01..2025-02-28',
      '2025-03-01..2025-03-31',
    ]);
    assert.deepEqual(shown(planOccurrencesOf(rule(RepeatCycle.PricePlan, '2025-02-01', 1, '2025-02-28'), plan, null, d('2025-03-15'))), [
      '2025-02-01..2025-02-28',
    ]);
    assert.deepEqual(shown(planOccurrencesOf(rule(RepeatCycle.PricePlan, '2025-01-01'), plan, d('2025-03-01'), d('2025-03-15'))), [
      '2025-03-01..2025-03-31',
    ]);
  });
});

describe('lazy periods and occurrences (docs/billing.md "Bounds")', () => {
  const rule = (cycle: number, from: string, unit = 1, until: string | null = null) => ({
    cycle,
    unit,
    from: d(from),
    until: until ? d(until) : null,
  });
  /** The first `count` items of a sequence, reading no further. */
  const first = <T>(items: Iterable<T>, count: number): T[] => {
    const taken: T[] = [];
    for (const item of items) {
      taken.push(item);
      if (taken.length === count) break;
    }
    return taken;
  };

  it('each is made only when read: nothing is built by the call, and a reader that stops takes only what it read', () => {
    const periods = contractPeriods(terms('2025-01-01', 1), null, d('2025-12-31'));
    assert.equal(Array.isArray(periods), false);
    assert.deepEqual(shown([periods.next().value as BillingPeriod]), ['2025-01-01..2025-01-31']);
    assert.deepEqual(shown(first(periods, 2)), ['2025-02-01..2025-02-28', '2025-03-01..2025-03-31']);
  });

  it('a daily sale from 1000-01-01 up to 9999-12-31 (3.3 million days): its first 1,000 occurrences come at once, 1000-01-01 to 1002-09-27', () => {
    const started = process.hrtime.bigint();
    const taken = first(occurrences(rule(RepeatCycle.Day, '1000-01-01'), null, d('9999-12-31')), 1000);
    assert.equal(taken.length, 1000);
    assert.deepEqual(shown([taken[0], taken[999]]), ['1000-01-01..1000-01-01', '1002-09-27..1002-09-27']);
    assert.ok(process.hrtime.bigint() - started < 1_000_000_000n, 'took a second or more');
  });

  it('a monthly contract from 1000-01-01 up to 9999-12-31: its first periods come at once, and after InvoicedPeriod it goes on from there', () => {
    const plan = terms('1000-01-01', 1);
    assert.deepEqual(shown(first(contractPeriods(plan, null, d('9999-12-31')), 2)), ['1000-01-01..1000-01-31', '1000-02-01..1000-02-28']);
    assert.deepEqual(shown(first(contractPeriods(plan, d('1083-05-01'), d('9999-12-31')), 1)), ['1083-05-01..1083-05-31']);
    assert.deepEqual(shown(first(pricePlanOccurrences(rule(RepeatCycle.PricePlan, '1000-01-01'), plan, null, d('9999-12-31')), 2)), [
      '1000-01-01..1000-01-31',
      '1000-02-01..1000-02-28',
    ]);
    assert.deepEqual(shown(first(occurrences(rule(RepeatCycle.Day, '1000-01-01'), d('1002-09-28'), d('9999-12-31')), 1)), [
      '1002-09-28..1002-09-28',
    ]);
  });
});
