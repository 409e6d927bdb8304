import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { proportionCents, roundCents, toAmount, toDecimalText, units } from './money.js';

describe('settlement money', () => {
  it('reads numbers and decimal text exactly: 0.1 + 0.2 is 0.3', () => {
    assert.equal(toAmount(units(0.1) + units(0.2)), 0.3);
    assert.equal(units('12.5000'), 125000n);
    assert.equal(units('-0.0001'), -1n);
    assert.equal(units(null), 0n);
    assert.equal(units(1e-7), 0n);
    assert.equal(units(123456789.1234), 1234567891234n);
  });

  it('writes four places for a decimal column', () => {
    assert.equal(toDecimalText(-125000n), '-12.5000');
    assert.equal(toDecimalText(1n), '0.0001');
  });

  it('rounds to cents half away from zero: 12.345 → 12.35, −12.345 → −12.35, 12.3449 → 12.34', () => {
    assert.equal(toAmount(roundCents(units(12.345))), 12.35);
    assert.equal(toAmount(roundCents(units(-12.345))), -12.35);
    assert.equal(toAmount(roundCents(units(12.3449))), 12.34);
  });

  it('a credit note of 50 on an invoice of 120 with 20 tax carries 8.33 of tax (50 × 20 ÷ 120 = 8.333…)', () => {
    assert.equal(toAmount(proportionCents(units(50), units(20), units(120))), 8.33);
    assert.equal(toAmount(proportionCents(units(-50), units(20), units(120))), -8.33);
    assert.equal(toAmount(proportionCents(units(1), units(1), units(8))), 0.13);
    assert.equal(toAmount(proportionCents(units(1), units(1), 0n)), 0);
  });
});
