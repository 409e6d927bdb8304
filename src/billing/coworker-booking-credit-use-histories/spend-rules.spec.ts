import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planSpend, spendingOrder, spent, type SpendableCredit } from './spend-rules.js';

const day = (text: string) => Date.parse(text);
const credit = (Id: number, remaining: bigint, expires: string | null): SpendableCredit => ({
  Id,
  remaining,
  expires: expires === null ? null : day(expires),
});

describe('credit spending', () => {
  it('earliest expiry first, credits that never expire last, then by Id', () => {
    const order = spendingOrder([
      credit(1, 1n, null),
      credit(2, 1n, '2030-01-01'),
      credit(3, 1n, '2029-01-01'),
      credit(4, 1n, '2029-01-01'),
      credit(5, 1n, null),
    ]);
    assert.deepEqual(
      order.map((c) => c.Id),
      [3, 4, 2, 1, 5],
    );
  });
  it('a price of 10 from credits of 4 (expiring first), 3 and 100 (never): 4 + 3 + 3', () => {
    const spends = planSpend([credit(1, 1_000_000n, null), credit(2, 30_000n, '2030-01-01'), credit(3, 40_000n, '2029-01-01')], 100_000n);
    assert.deepEqual(spends, [
      { Id: 3, units: 40_000n },
      { Id: 2, units: 30_000n },
      { Id: 1, units: 30_000n },
    ]);
    assert.equal(spent(spends), 100_000n);
  });
  it('never more than a credit holds, nothing from an empty one, nothing for a price of 0', () => {
    assert.deepEqual(planSpend([credit(1, 0n, '2029-01-01'), credit(2, 5n, null)], 100n), [{ Id: 2, units: 5n }]);
    assert.deepEqual(planSpend([credit(1, 5n, null)], 0n), []);
  });
});
