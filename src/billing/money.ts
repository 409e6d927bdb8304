/**
 * Exact money for settlement (docs/api.md §9.1, §10): amounts as integer ten-thousandths (bigint), the
 * scale of the decimal(18,4) columns, so sums and comparisons never meet floating point. Amounts come
 * from the databases as numbers (SQLite) or decimal text (MySQL), and from JSON as numbers with at most
 * four decimals (the validation of `Money` fields makes sure of that).
 */
export const SCALE = 4;
const UNIT = 10n ** BigInt(SCALE);

export type Units = bigint;

/** One cent in units: an amount that moves money is a whole number of them (docs/api.md §9.1). */
export const CENT = 10n ** BigInt(SCALE - 2);

/** An amount as units: 12.5 → 125000n; null and undefined → 0n. */
export function units(amount: number | string | bigint | null | undefined): Units {
  if (amount === null || amount === undefined) return 0n;
  if (typeof amount === 'bigint') return amount * UNIT;
  const text = typeof amount === 'number' ? numberText(amount) : amount.trim();
  const match = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match || (match[2] === '' && !match[3])) throw new Error(`Not a decimal amount: ${text}`);
  const fraction = (match[3] ?? '').padEnd(SCALE + 1, '0');
  let value = BigInt(match[2] || '0') * UNIT + BigInt(fraction.slice(0, SCALE));
  // A fifth decimal (a float's noise, or a database's extra places) rounds half away from zero.
  if (Number(fraction[SCALE]) >= 5) value += 1n;
  return match[1] === '-' ? -value : value;
}

/** A JavaScript number as plain decimal text: its shortest form, or 5 places when that has an exponent (1e-7). */
function numberText(amount: number): string {
  if (!Number.isFinite(amount)) throw new Error(`Not a decimal amount: ${amount}`);
  const text = String(amount);
  return /e/i.test(text) ? amount.toFixed(SCALE + 1) : text;
}

/** Units as the wire's JSON number: 125000n → 12.5. */
export function toAmount(value: Units): number {
  return Number(toDecimalText(value));
}

/** Units as decimal text with four places, for a decimal column: 125000n → "12.5000". */
export function toDecimalText(value: Units): string {
  const sign = value < 0n ? '-' : '';
  const magnitude = value < 0n ? -value : value;
  return `${sign}${magnitude / UNIT}.${(magnitude % UNIT).toString().padStart(SCALE, '0')}`;
}

/** Rounded to cents, half away from zero (docs/api.md §9.1): 12.345 → 12.35, −12.345 → −12.35. */
export function roundCents(value: Units): Units {
  const step = 10n ** BigInt(SCALE - 2);
  const magnitude = value < 0n ? -value : value;
  const rounded = ((magnitude + step / 2n) / step) * step;
  return value < 0n ? -rounded : rounded;
}

/** `value × numerator ÷ denominator`, rounded to cents half away from zero; 0 when the denominator is 0. */
export function proportionCents(value: Units, numerator: Units, denominator: Units): Units {
  if (denominator === 0n) return 0n;
  const step = 10n ** BigInt(SCALE - 2);
  // In cents-steps: value × numerator ÷ (denominator × step), rounded half away from zero.
  const top = value * numerator;
  const bottom = denominator * step;
  const negative = top < 0n !== bottom < 0n;
  const a = top < 0n ? -top : top;
  const b = bottom < 0n ? -bottom : bottom;
  const quotient = (2n * a + b) / (2n * b);
  return (negative ? -quotient : quotient) * step;
}

export const sum = (values: Iterable<Units>): Units => {
  let total = 0n;
  for (const value of values) total += value;
  return total;
};
