// Exact money arithmetic (docs/api.md §9.1): amounts as bigint counts of 1/10,000, the scale of every
// money column (decimal(18,4)), so no amount ever passes through floating-point arithmetic.

const SCALE = 4;
const UNIT = 10n ** BigInt(SCALE);
/** One cent in units. */
const CENT = 100n;

/**
 * An amount as the drivers give it (a number on SQLite, decimal text on MySQL) or a wire number, in
 * units of 1/10,000. A number is read by its shortest decimal text, which for the amounts the money
 * columns hold (below 10^13, at most four decimals) is the decimal that was stored.
 */
export function toUnits(amount: number | string | bigint): bigint {
  if (typeof amount === 'bigint') return amount;
  const text = typeof amount === 'number' ? amount.toFixed(SCALE) : amount.trim();
  const match = /^([-+]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) throw new Error(`Not a decimal amount: ${text}`);
  const units = BigInt(match[2] || '0') * UNIT + BigInt((match[3] ?? '').padEnd(SCALE, '0').slice(0, SCALE));
  return match[1] === '-' ? -units : units;
}

/** Units as decimal text with four places ("12.5000"), what both databases store exactly. */
export function unitsText(units: bigint): string {
  const sign = units < 0n ? '-' : '';
  const magnitude = units < 0n ? -units : units;
  return `${sign}${magnitude / UNIT}.${(magnitude % UNIT).toString().padStart(SCALE, '0')}`;
}

/** Units as a wire number (JSON): exact for every amount a money column holds. */
export const unitsNumber = (units: bigint): number => Number(unitsText(units));

/** `numerator ÷ denominator` (denominator > 0) rounded to the nearest integer, halves away from zero. */
export function divideRounded(numerator: bigint, denominator: bigint): bigint {
  const magnitude = numerator < 0n ? -numerator : numerator;
  const rounded = (2n * magnitude + denominator) / (2n * denominator);
  return numerator < 0n ? -rounded : rounded;
}

/** Units rounded to whole cents, halves away from zero (docs/api.md §9.1), still in units. */
export const roundToCents = (units: bigint): bigint => divideRounded(units, CENT) * CENT;
