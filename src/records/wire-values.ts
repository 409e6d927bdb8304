import type { WireKind } from './columns.js';

/** 2025-01-15T10:30:00Z: ISO 8601 UTC with seconds and Z (docs/api.md §1). */
export function formatDateTime(value: Date): string {
  return value.toISOString().slice(0, 19) + 'Z';
}

/**
 * Converts a raw database value to its wire value. Both drivers hand back the same text for
 * datetimes ('YYYY-MM-DD HH:MM:SS[.fff]', UTC), 0/1 for booleans and numbers or decimal strings.
 */
export function toWire(kind: WireKind, raw: unknown): unknown {
  if (raw === null || raw === undefined) return kind === 'idList' ? [] : null;
  switch (kind) {
    case 'int':
    case 'money':
      return Number(raw);
    case 'bool':
      return raw === true || raw === 1 || raw === '1' || (typeof raw === 'bigint' && raw !== 0n);
    case 'datetime':
      if (raw instanceof Date) return formatDateTime(raw);
      return `${String(raw).slice(0, 10)}T${String(raw).slice(11, 19)}Z`;
    case 'idList':
      // JSON text from a list column or a JSON aggregate (MySQL may hand it over parsed).
      if (typeof raw !== 'string') return raw;
      return raw === '' ? [] : JSON.parse(raw);
    default:
      return raw;
  }
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * Parses an input date-time (docs/api.md §1): a plain date, YYYY-MM-DDTHH:mm, with seconds, with or
 * without Z or an offset; no zone means UTC. Returns null when the text is not such a date.
 */
export function parseDateTime(text: string): Date | null {
  let iso: string;
  if (DATE_ONLY.test(text)) iso = `${text}T00:00:00Z`;
  else {
    const m = DATE_TIME.exec(text);
    if (!m) return null;
    const zone = m[5] ? (m[5].toUpperCase() === 'Z' ? 'Z' : m[5].length === 5 ? `${m[5].slice(0, 3)}:${m[5].slice(3)}` : m[5]) : 'Z';
    iso = `${m[1]}T${m[2]}${m[3] ?? ':00'}${zone}`;
  }
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  // Reject rolled-over dates such as 2025-02-30, which Date would quietly turn into March.
  const [y, mo, d] = text.slice(0, 10).split('-').map(Number);
  const check = new Date(Date.UTC(y, mo - 1, d));
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return null;
  return date;
}

/** Whether a date text carried only a day, so an inclusive upper bound covers the whole day. */
export const isDateOnly = (text: string): boolean => DATE_ONLY.test(text);

/** Milliseconds of a datetime as either database returns it ('YYYY-MM-DD HH:MM:SS[.fff]', UTC). */
export function parseDbDateTime(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.getTime();
  const text = String(value);
  return Date.parse(`${text.slice(0, 10)}T${text.slice(11, 23) || '00:00:00'}Z`);
}
