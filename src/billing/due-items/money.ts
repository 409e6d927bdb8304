// Exact money for billing (docs/billing.md): amounts as bigint counts of 1/10,000 (the four decimal
// places every money column stores), never floats; one rounding rule: to 2 decimal places, half away
// from zero. Wire amounts (JSON numbers of at most 4 decimals) convert through their shortest text.

/** Units of an amount: 1/10,000. */
export type Units = bigint;

const SCALE = 10_000n;
const CENT = 100n;

/** An amount as a wire number or database text (`"12.3400"`) → units; exact for up to 4 decimals. */
export function toUnits(value: unknown): Units {
  if (value === null || value === undefined || value === '') return 0n;
  const text = typeof value === 'number' ? numberText(value) : String(value).trim();
  const m = /^(-?)(\d+)(?:\.(\d{0,4})\d*)?$/.exec(text);
  if (!m) throw new Error(`Not an amount: ${text}`);
  const units = BigInt(m[2]) * SCALE + BigInt((m[3] ?? '').padEnd(4, '0'));
  return m[1] ? -units : units;
}

/** A number's plain decimal text (no exponent). */
function numberText(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`Not an amount: ${value}`);
  const text = String(value);
  if (!text.includes('e')) return text;
  return value.toFixed(4);
}

/** Units → the wire number (exact: at most 4 decimals). */
export function fromUnits(units: Units): number {
  return Number(unitsText(units));
}

/** Units as decimal text with four places, for SQL parameters. */
export function unitsText(units: Units): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  return `${negative ? '-' : ''}${abs / SCALE}.${String(abs % SCALE).padStart(4, '0')}`;
}

/** numerator ÷ denominator rounded to the nearest integer, halves away from zero. */
export function divideRounded(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new Error('Division by zero');
  if (denominator < 0n) return divideRounded(-numerator, -denominator);
  const negative = numerator < 0n;
  const abs = negative ? -numerator : numerator;
  const q = (abs * 2n + denominator) / (denominator * 2n);
  return negative ? -q : q;
}

/** Units rounded to whole cents (2 decimal places), half away from zero; still in units. */
export function roundToCents(units: Units): Units {
  return divideRounded(units, CENT) * CENT;
}

/** `amount × numerator ÷ denominator`, rounded to cents: pro-rating by days. */
export function prorate(amount: Units, numerator: number, denominator: number): Units {
  return divideRounded(amount * BigInt(numerator), BigInt(denominator) * CENT) * CENT;
}

/** The tax of a net amount at a percent rate (both in units), rounded to cents. */
export function taxOf(net: Units, ratePercent: Units): Units {
  // net × (rate / 10,000 units) ÷ 100 percent, in units; then to cents.
  return divideRounded(net * ratePercent, SCALE * 100n * CENT) * CENT;
}
