import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fromUnits, proportionCents, prorate, roundToCents, taxOf, toUnits, unitsText, wholeCentsOf } from './money.js';

describe('money (exact, 4 places, rounded half away from zero)', () => {
  it('reads wire numbers and database text exactly: 0.1 + 0.2 is 0.3', () => {
    assert.equal(fromUnits(toUnits(0.1) + toUnits(0.2)), 0.3);
    assert.equal(toUnits('12.3400'), 123_400n);
    assert.equal(toUnits(-1.5), -15_000n);
    assert.equal(toUnits('-0.0001'), -1n);
    assert.equal(toUnits(null), 0n);
    assert.equal(toUnits(''), 0n);
    assert.equal(toUnits(1e-7), 0n);
    assert.equal(toUnits(123456789.1234), 1234567891234n);
    assert.equal(unitsText(toUnits(1e-4)), '0.0001');
    assert.equal(fromUnits(toUnits(9_999_999_999_999.9999)), 9_999_999_999_999.9999);
  });

  it("rounds a fifth decimal (a float's noise, a database's extra places) half away from zero", () => {
    assert.equal(toUnits(0.7999999999999999), 8000n);
    assert.equal(toUnits('1.23455'), 12_346n);
    assert.equal(toUnits('-1.23455'), -12_346n);
    assert.equal(toUnits('1.23454999'), 12_345n);
  });

  it('writes four places for a decimal column', () => {
    assert.equal(unitsText(-125_000n), '-12.5000');
    assert.equal(unitsText(1n), '0.0001');
  });

  it('rounds to cents half away from zero (not to even): 2.345 → 2.35, −2.345 → −2.35, 2.3449 → 2.34', () => {
    assert.equal(fromUnits(roundToCents(toUnits(2.345))), 2.35);
    assert.equal(fromUnits(roundToCents(toUnits(-2.345))), -2.35);
    assert.equal(fromUnits(roundToCents(toUnits(2.3449))), 2.34);
    assert.equal(fromUnits(roundToCents(toUnits(0.125))), 0.13);
  });

  it('cuts a balance down to whole cents, never up: 3.3339 → 3.33, 0.0099 → 0', () => {
    assert.equal(fromUnits(wholeCentsOf(toUnits(3.3339))), 3.33);
    assert.equal(wholeCentsOf(toUnits(0.0099)), 0n);
    assert.equal(fromUnits(wholeCentsOf(toUnits(12.5))), 12.5);
  });

  it('pro-rates 100 for 16 of 31 days as 51.61, and 10 for 1 of 8 days as 1.25 (an exact half cent rounds up)', () => {
    assert.equal(fromUnits(prorate(toUnits(100), 16, 31)), 51.61);
    assert.equal(fromUnits(prorate(toUnits(10), 1, 8)), 1.25);
    assert.equal(fromUnits(prorate(toUnits(0.05), 1, 2)), 0.03);
  });

  it('taxes 10.05 at 5% as 0.50 (0.5025) and 0.10 at 25% as 0.03 (0.025, half away from zero)', () => {
    assert.equal(fromUnits(taxOf(toUnits(10.05), toUnits(5))), 0.5);
    assert.equal(fromUnits(taxOf(toUnits(0.1), toUnits(25))), 0.03);
    assert.equal(fromUnits(taxOf(toUnits(19.99), toUnits(20))), 4);
    assert.equal(fromUnits(taxOf(toUnits(-0.1), toUnits(25))), -0.03);
  });

  it('a credit note of 50 on an invoice of 120 with 20 tax carries 8.33 of tax (50 × 20 ÷ 120 = 8.333…)', () => {
    assert.equal(fromUnits(proportionCents(toUnits(50), toUnits(20), toUnits(120))), 8.33);
    assert.equal(fromUnits(proportionCents(toUnits(-50), toUnits(20), toUnits(120))), -8.33);
    assert.equal(fromUnits(proportionCents(toUnits(1), toUnits(1), toUnits(8))), 0.13);
    assert.equal(fromUnits(proportionCents(toUnits(1), toUnits(1), 0n)), 0);
  });
});
