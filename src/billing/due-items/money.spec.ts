import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fromUnits, prorate, roundToCents, taxOf, toUnits, unitsText } from './money.js';

describe('billing money (exact, 2 dp, half away from zero)', () => {
  it('reads wire numbers and database text exactly', () => {
    assert.equal(toUnits(0.1) + toUnits(0.2), toUnits(0.3));
    assert.equal(toUnits('12.3400'), 123_400n);
    assert.equal(toUnits(-1.5), -15_000n);
    assert.equal(unitsText(toUnits(1e-4)), '0.0001');
    assert.equal(fromUnits(toUnits(9_999_999_999_999.9999)), 9_999_999_999_999.9999);
  });

  it('rounds 2.345 up to 2.35 and -2.345 down to -2.35 (half away from zero, not to even)', () => {
    assert.equal(fromUnits(roundToCents(toUnits(2.345))), 2.35);
    assert.equal(fromUnits(roundToCents(toUnits(-2.345))), -2.35);
    assert.equal(fromUnits(roundToCents(toUnits(2.3449))), 2.34);
    assert.equal(fromUnits(roundToCents(toUnits(0.125))), 0.13);
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
});
