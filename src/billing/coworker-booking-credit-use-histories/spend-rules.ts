// Which credits pay for a booking, and how much of each (docs/bookings.md "Credits"). Pure: the create,
// its retries under concurrency and `available` all plan with it.

/** A credit that can pay for a booking, with what is left of it (units of 1/10,000). */
export interface SpendableCredit {
  Id: number;
  remaining: bigint;
  /** Milliseconds; null: never expires. */
  expires: number | null;
}

/** One spend: `units` taken from the credit `Id`. */
export interface Spend {
  Id: number;
  units: bigint;
}

/** The order credits are spent in: the earliest ExpireDate first, credits that never expire last, then by Id. */
export function spendingOrder<T extends Pick<SpendableCredit, 'Id' | 'expires'>>(credits: readonly T[]): T[] {
  return [...credits].sort((a, b) => {
    if (a.expires !== b.expires) {
      if (a.expires === null) return 1;
      if (b.expires === null) return -1;
      return a.expires - b.expires;
    }
    return a.Id - b.Id;
  });
}

/** The spends that pay up to `amount` from the credits in spending order; nothing from an empty credit. */
export function planSpend(credits: readonly SpendableCredit[], amount: bigint): Spend[] {
  const spends: Spend[] = [];
  let left = amount;
  for (const credit of spendingOrder(credits)) {
    if (left <= 0n) break;
    if (credit.remaining <= 0n) continue;
    const units = credit.remaining < left ? credit.remaining : left;
    spends.push({ Id: credit.Id, units });
    left -= units;
  }
  return spends;
}

/** What the spends take in all. */
export const spent = (spends: readonly Spend[]): bigint => spends.reduce((sum, spend) => sum + spend.units, 0n);
