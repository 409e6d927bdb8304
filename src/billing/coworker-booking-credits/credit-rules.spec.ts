import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  addMonths,
  creditApplies,
  endOfMonth,
  ExpirationType,
  expiryDate,
  nextRenewal,
  releasedAmount,
  type Eligibility,
  type ExpiryRule,
} from './credit-rules.js';

const at = (iso: string) => new Date(iso);
const iso = (date: Date | null) => date?.toISOString() ?? null;
const rule = (overrides: Partial<ExpiryRule>): ExpiryRule => ({
  ExpirationType: null,
  ExpiresIn: null,
  ExpireTimeInMonths: null,
  ExpireTimeInWeeks: null,
  ...overrides,
});

describe('expiry arithmetic', () => {
  const sale = at('2025-01-31T10:00:00Z');

  it('adds days and weeks exactly', () => {
    assert.equal(iso(expiryDate(rule({ ExpirationType: ExpirationType.Day, ExpiresIn: 10 }), sale, null)), '2025-02-10T10:00:00.000Z');
    assert.equal(iso(expiryDate(rule({ ExpirationType: ExpirationType.Week, ExpiresIn: 2 }), sale, null)), '2025-02-14T10:00:00.000Z');
  });

  it('adds months, clamping to the end of shorter months, leap years included', () => {
    assert.equal(iso(expiryDate(rule({ ExpirationType: ExpirationType.Month, ExpiresIn: 1 }), sale, null)), '2025-02-28T10:00:00.000Z');
    assert.equal(iso(addMonths(at('2024-01-31T00:00:00Z'), 1)), '2024-02-29T00:00:00.000Z');
    assert.equal(iso(addMonths(at('2025-03-31T08:30:00Z'), 1)), '2025-04-30T08:30:00.000Z');
    assert.equal(iso(addMonths(at('2025-11-15T00:00:00Z'), 3)), '2026-02-15T00:00:00.000Z');
    assert.equal(iso(addMonths(at('2025-05-31T00:00:00Z'), -3)), '2025-02-28T00:00:00.000Z');
  });

  it('adds years; 29 February becomes 28 February in a common year', () => {
    assert.equal(
      iso(expiryDate(rule({ ExpirationType: ExpirationType.Year, ExpiresIn: 1 }), at('2024-02-29T12:00:00Z'), null)),
      '2025-02-28T12:00:00.000Z',
    );
    assert.equal(
      iso(expiryDate(rule({ ExpirationType: ExpirationType.Year, ExpiresIn: 4 }), at('2024-02-29T12:00:00Z'), null)),
      '2028-02-29T12:00:00.000Z',
    );
  });

  it('LastDayOfMonth: the last second of the month ExpiresIn months on', () => {
    const mid = at('2025-01-15T09:00:00Z');
    assert.equal(
      iso(expiryDate(rule({ ExpirationType: ExpirationType.LastDayOfMonth, ExpiresIn: 0 }), mid, null)),
      '2025-01-31T23:59:59.000Z',
    );
    assert.equal(
      iso(expiryDate(rule({ ExpirationType: ExpirationType.LastDayOfMonth, ExpiresIn: 1 }), mid, null)),
      '2025-02-28T23:59:59.000Z',
    );
    assert.equal(
      iso(expiryDate(rule({ ExpirationType: ExpirationType.LastDayOfMonth, ExpiresIn: 13 }), mid, null)),
      '2026-02-28T23:59:59.000Z',
    );
    assert.equal(iso(endOfMonth(at('2023-12-31T23:00:00Z'), 2)), '2024-02-29T23:59:59.000Z');
  });

  it('PricePlan: the next renewal, or no expiry without one', () => {
    const renewal = at('2025-02-01T00:00:00Z');
    assert.equal(expiryDate(rule({ ExpirationType: ExpirationType.PricePlan, ExpiresIn: 3 }), sale, renewal), renewal);
    assert.equal(expiryDate(rule({ ExpirationType: ExpirationType.PricePlan }), sale, null), null);
  });

  it('no ExpirationType: legacy months, then weeks, else no expiry', () => {
    assert.equal(iso(expiryDate(rule({ ExpireTimeInMonths: 1, ExpireTimeInWeeks: 1 }), sale, null)), '2025-02-28T10:00:00.000Z');
    assert.equal(iso(expiryDate(rule({ ExpirationType: 0, ExpireTimeInWeeks: 1 }), sale, null)), '2025-02-07T10:00:00.000Z');
    assert.equal(expiryDate(rule({}), sale, null), null);
    assert.equal(expiryDate(rule({ ExpirationType: ExpirationType.Month }), sale, null), null);
  });
});

describe('expiry arithmetic: month ends and leap years', () => {
  const expires = (type: number, n: number | null, from: string) =>
    iso(expiryDate(rule({ ExpirationType: type, ExpiresIn: n }), at(from), null));

  it('months from the 29th, 30th and 31st land on the last day of February, leap or not', () => {
    assert.equal(expires(ExpirationType.Month, 1, '2024-01-29T00:00:00Z'), '2024-02-29T00:00:00.000Z');
    assert.equal(expires(ExpirationType.Month, 1, '2024-01-30T00:00:00Z'), '2024-02-29T00:00:00.000Z');
    assert.equal(expires(ExpirationType.Month, 1, '2023-01-29T00:00:00Z'), '2023-02-28T00:00:00.000Z');
    assert.equal(expires(ExpirationType.Month, 13, '2023-01-31T00:00:00Z'), '2024-02-29T00:00:00.000Z');
    assert.equal(expires(ExpirationType.Month, 12, '2024-02-29T06:00:00Z'), '2025-02-28T06:00:00.000Z');
    assert.equal(expires(ExpirationType.Month, 48, '2024-02-29T06:00:00Z'), '2028-02-29T06:00:00.000Z');
    assert.equal(expires(ExpirationType.Month, 1, '2025-12-31T23:59:59Z'), '2026-01-31T23:59:59.000Z');
  });

  it('100-year rule: 1900 and 2100 are common years, 2000 a leap year', () => {
    assert.equal(expires(ExpirationType.Year, 1, '2099-02-28T00:00:00Z'), '2100-02-28T00:00:00.000Z');
    assert.equal(expires(ExpirationType.LastDayOfMonth, 1, '2100-01-10T00:00:00Z'), '2100-02-28T23:59:59.000Z');
    assert.equal(expires(ExpirationType.LastDayOfMonth, 1, '2000-01-10T00:00:00Z'), '2000-02-29T23:59:59.000Z');
  });

  it('days and weeks cross month, year and leap-day boundaries', () => {
    assert.equal(expires(ExpirationType.Day, 1, '2024-02-28T12:00:00Z'), '2024-02-29T12:00:00.000Z');
    assert.equal(expires(ExpirationType.Day, 1, '2025-02-28T12:00:00Z'), '2025-03-01T12:00:00.000Z');
    assert.equal(expires(ExpirationType.Week, 1, '2025-12-29T00:00:00Z'), '2026-01-05T00:00:00.000Z');
    assert.equal(expires(ExpirationType.Day, 366, '2024-01-01T00:00:00Z'), '2025-01-01T00:00:00.000Z');
  });

  it('LastDayOfMonth from the last day of a month, and across the year end', () => {
    assert.equal(expires(ExpirationType.LastDayOfMonth, 0, '2025-01-31T23:59:59Z'), '2025-01-31T23:59:59.000Z');
    assert.equal(expires(ExpirationType.LastDayOfMonth, 1, '2025-01-31T10:00:00Z'), '2025-02-28T23:59:59.000Z');
    assert.equal(expires(ExpirationType.LastDayOfMonth, 2, '2025-11-30T10:00:00Z'), '2026-01-31T23:59:59.000Z');
    assert.equal(expires(ExpirationType.LastDayOfMonth, null, '2025-04-02T10:00:00Z'), '2025-04-30T23:59:59.000Z');
  });

  it('legacy ExpireTimeInMonths clamps month ends too', () => {
    assert.equal(iso(expiryDate(rule({ ExpireTimeInMonths: 1 }), at('2024-01-31T08:00:00Z'), null)), '2024-02-29T08:00:00.000Z');
  });
});

describe('next renewal (PricePlan credits)', () => {
  const plan = (start: string, cancelled: string | null = null) => ({
    StartDate: at(start),
    CancellationDate: cancelled === null ? null : at(cancelled),
  });

  it('monthly on the day and time the main contract started, across the year end', () => {
    assert.equal(iso(nextRenewal(plan('2025-01-10T09:00:00Z'), at('2025-01-15T10:00:00Z'))), '2025-02-10T09:00:00.000Z');
    assert.equal(iso(nextRenewal(plan('2025-01-10T09:00:00Z'), at('2025-12-31T23:59:59Z'))), '2026-01-10T09:00:00.000Z');
    assert.equal(iso(nextRenewal(plan('2025-03-01T00:00:00Z'), at('2025-03-01T00:00:00Z'))), '2025-04-01T00:00:00.000Z');
    assert.equal(iso(nextRenewal(plan('2025-03-20T00:00:00Z'), at('2025-03-20T00:00:00Z'))), '2025-04-20T00:00:00.000Z');
    assert.equal(iso(nextRenewal(plan('2023-06-05T12:00:00Z'), at('2025-02-05T12:00:00Z'))), '2025-03-05T12:00:00.000Z');
  });

  it('a start on a day some months lack renews on their last day, and on the day itself otherwise', () => {
    assert.equal(iso(nextRenewal(plan('2025-01-31T08:00:00Z'), at('2025-02-01T00:00:00Z'))), '2025-02-28T08:00:00.000Z');
    assert.equal(iso(nextRenewal(plan('2025-01-31T08:00:00Z'), at('2025-03-01T00:00:00Z'))), '2025-03-31T08:00:00.000Z');
  });

  it('a contract cancelled before its next renewal ends the plan at its cancellation', () => {
    assert.equal(
      iso(nextRenewal(plan('2025-01-10T00:00:00Z', '2025-02-01T00:00:00Z'), at('2025-01-15T00:00:00Z'))),
      '2025-02-01T00:00:00.000Z',
    );
    assert.equal(
      iso(nextRenewal(plan('2025-01-10T00:00:00Z', '2025-06-01T00:00:00Z'), at('2025-01-15T00:00:00Z'))),
      '2025-02-10T00:00:00.000Z',
    );
  });

  it('without a contract: none, so the credit does not expire', () => {
    assert.equal(nextRenewal(null, at('2025-01-15T10:00:00Z')), null);
    assert.equal(
      expiryDate(
        rule({ ExpirationType: ExpirationType.PricePlan, ExpiresIn: 1 }),
        at('2025-01-15T10:00:00Z'),
        nextRenewal(null, at('2025-01-15T10:00:00Z')),
      ),
      null,
    );
  });
});

describe('released amount', () => {
  it('multiplies decimals exactly, from numbers and from decimal text', () => {
    assert.equal(releasedAmount(0.1, 3), '0.3000');
    assert.equal(releasedAmount('10.5000', 3), '31.5000');
    assert.equal(releasedAmount(2.3333, 3), '6.9999');
    assert.equal(releasedAmount('0.0001', 7), '0.0007');
    assert.equal(releasedAmount(5, 1), '5.0000');
    assert.equal(releasedAmount('0', 40), '0.0000');
    assert.equal(releasedAmount('99999999999.9999', 1000), '99999999999999.9000');
    assert.equal(releasedAmount('-1.25', 2), '-2.5000');
  });

  it('refuses what is not a decimal', () => {
    assert.throws(() => releasedAmount('1e5', 1));
    assert.throws(() => releasedAmount(Number.NaN, 1));
  });
});

describe('credit eligibility (docs/api.md §9.7 rules 1–3)', () => {
  const credit = (overrides: Partial<Eligibility>): Eligibility => ({
    ElegibleResourceTypes: [],
    ElegibleProducts: [],
    ElegiblePasses: [],
    EventCategories: [],
    CaneBeUsedForBookings: false,
    CaneBeUsedForEvents: false,
    IsUniversalCredit: false,
    AppliesToCharges: false,
    ...overrides,
  });

  it('resource types: only when usable for bookings; an empty list means every type (rule 2)', () => {
    assert.equal(creditApplies(credit({ CaneBeUsedForBookings: true }), { resourceTypeId: 7 }), true);
    assert.equal(creditApplies(credit({ CaneBeUsedForBookings: true, ElegibleResourceTypes: [1, 2] }), { resourceTypeId: 2 }), true);
    assert.equal(creditApplies(credit({ CaneBeUsedForBookings: true, ElegibleResourceTypes: [1, 2] }), { resourceTypeId: 7 }), false);
    assert.equal(creditApplies(credit({ ElegibleResourceTypes: [7] }), { resourceTypeId: 7 }), false);
  });

  it('event categories: only when usable for events; an empty list means every event (rule 3)', () => {
    assert.equal(creditApplies(credit({ CaneBeUsedForEvents: true }), { eventCategoryId: 3 }), true);
    assert.equal(creditApplies(credit({ CaneBeUsedForEvents: true, EventCategories: [4] }), { eventCategoryId: 3 }), false);
    assert.equal(creditApplies(credit({ CaneBeUsedForBookings: true }), { eventCategoryId: 3 }), false);
  });

  it('products, passes and charges: only universal credits', () => {
    for (const use of [{ productId: 1 }, { passId: 1 }, { charge: true as const }]) {
      assert.equal(creditApplies(credit({ CaneBeUsedForBookings: true, CaneBeUsedForEvents: true }), use), false);
    }
  });

  it('rule 1: a universal credit with no restriction applies to every product, pass and charge', () => {
    const universal = credit({ IsUniversalCredit: true });
    for (const use of [{ productId: 5 }, { passId: 9 }, { charge: true as const }]) assert.equal(creditApplies(universal, use), true);
  });

  it('bookings and events are not universal use, and universal is not bookings or events', () => {
    const bookingOnly = credit({ CaneBeUsedForBookings: true, CaneBeUsedForEvents: true });
    assert.equal(creditApplies(bookingOnly, { charge: true }), false);
    const universalForBookings = credit({ IsUniversalCredit: true, CaneBeUsedForBookings: false, ElegibleResourceTypes: [] });
    assert.equal(creditApplies(universalForBookings, { resourceTypeId: 1 }), false, 'universal does not mean usable for bookings');
    assert.equal(creditApplies(universalForBookings, { eventCategoryId: 1 }), false);
    const chargesOnly = credit({ IsUniversalCredit: true, AppliesToCharges: true });
    assert.equal(creditApplies(chargesOnly, { passId: 9 }), false, 'a charges-only credit is restricted: no passes');
  });

  it('a restricted universal credit applies only where its lists or flag say', () => {
    const restricted = credit({ IsUniversalCredit: true, ElegibleProducts: [5], ElegiblePasses: [9] });
    assert.equal(creditApplies(restricted, { productId: 5 }), true);
    assert.equal(creditApplies(restricted, { productId: 6 }), false);
    assert.equal(creditApplies(restricted, { passId: 9 }), true);
    assert.equal(creditApplies(restricted, { passId: 8 }), false);
    assert.equal(creditApplies(restricted, { charge: true }), false);
    const charges = credit({ IsUniversalCredit: true, AppliesToCharges: true });
    assert.equal(creditApplies(charges, { charge: true }), true);
    assert.equal(creditApplies(charges, { productId: 5 }), false);
  });
});
