/**
 * Exact money (docs/billing.md, docs/api.md §9.1): amounts as bigint counts of 1/10,000, the scale of the
 * decimal(18,4) columns, so sums and comparisons never meet floating point; one rounding rule, half away
 * from zero. Amounts come from the databases as numbers (SQLite) or decimal text (MySQL), and from JSON
 * as numbers of at most four decimals (the validation of `Money` fields makes sure of that).
 */

/** Units of an amount: 1/10,000. */
export type Units = bigint;

const PLACES = 4;
/** One in units: 10,000n. */
export const UNIT: Units = 10n ** BigInt(PLACES);
/** One cent in units: an amount that moves money is a whole number of them (docs/api.md §9.1). */
export const CENT: Units = 100n;

/** An amount as a wire number or database text (`"12.3400"`) → units; null, undefined and '' → 0n. */
export function toUnits(value: unknown): Units {
  if (value === null || value === undefined || value === '') return 0n;
  if (typeof value === 'bigint') return value * UNIT;
  const text = typeof value === 'number' ? numberText(value) : String(value).trim();
  const match = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match || (match[2] === '' && !match[3])) throw new Error(`Not an amount: ${text}`);
  const fraction = (match[3] ?? '').padEnd(PLACES + 1, '0');
  let units = BigInt(match[2] || '0') * UNIT + BigInt(fraction.slice(0, PLACES));
  // A fifth decimal (a float's noise, or a database's extra places) rounds half away from zero.
  if (Number(fraction[PLACES]) >= 5) units += 1n;
  return match[1] === '-' ? -units : units;
}

/** A number as plain decimal text: its shortest form, or 5 places when that has an exponent (1e-7). */
function numberText(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`Not an amount: ${value}`);
  const text = String(value);
  return /e/i.test(text) ? value.toFixed(PLACES + 1) : text;
}

/** Units → the wire number (exact: at most 4 decimals): 125000n → 12.5. */
export function fromUnits(units: Units): number {
  return Number(unitsText(units));
}

/** Units as decimal text with four places, for a decimal column or an SQL parameter: 125000n → "12.5000". */
export function unitsText(units: Units): string {
  const negative = units < 0n;
  const magnitude = negative ? -units : units;
  return `${negative ? '-' : ''}${magnitude / UNIT}.${(magnitude % UNIT).toString().padStart(PLACES, '0')}`;
}

/** numerator ÷ denominator rounded to the nearest integer, halves away from zero. */
export function divideRounded(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new Error('Division by zero');
  if (denominator < 0n) return divideRounded(-numerator, -denominator);
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  const quotient = (magnitude * 2n + denominator) / (denominator * 2n);
  return negative ? -quotient : quotient;
}

/** Units rounded to whole cents, half away from zero; still in units: 12.345 → 12.35, −12.345 → −12.35. */
export function roundToCents(units: Units): Units {
  return divideRounded(units, CENT) * CENT;
}

/** A non-negative amount cut down to whole cents (12.3456 → 12.34): the most of a balance that can move as money. */
export function wholeCentsOf(units: Units): Units {
  return units - (units % CENT);
}

/** `amount × numerator ÷ denominator` rounded to cents: pro-rating by days. */
export function prorate(amount: Units, numerator: number, denominator: number): Units {
  return divideRounded(amount * BigInt(numerator), BigInt(denominator) * CENT) * CENT;
}

/** `amount × numerator ÷ denominator` (all in units) rounded to cents; 0 when the denominator is 0: a credit note's share of tax. */
export function proportionCents(amount: Units, numerator: Units, denominator: Units): Units {
  return denominator === 0n ? 0n : divideRounded(amount * numerator, denominator * CENT) * CENT;
}

/** The tax of a net amount at a percent rate (both in units), rounded to cents. */
export function taxOf(net: Units, ratePercent: Units): Units {
  // net × (rate / 10,000 units) ÷ 100 percent, in units; then to cents.
  return divideRounded(net * ratePercent, UNIT * 100n * CENT) * CENT;
}

/** The total of amounts. */
export function sum(values: Iterable<Units>): Units {
  let total = 0n;
  for (const value of values) total += value;
  return total;
}
