import type { WireKind } from './columns.js';
import { RecordValidationException } from './errors.js';
import { MAX_ID } from './validation/fields.js';
import { isDateOnly, parseDateTime } from './wire-values.js';

/** A field a list can be filtered and sorted by. */
export interface ListField {
  name: string;
  kind: WireKind;
}

export interface ListSchema {
  /** The record's entity name, the prefix of its filters (`Product_Name`). */
  entityName: string;
  fields: readonly ListField[];
  /** Navigation names of foreign keys: `Business` filters `BusinessId`. */
  navigations?: Readonly<Record<string, string>>;
  /** Other spellings of fields that clients send (`IsUsed` for `Used`), lower case → field name. */
  aliases?: Readonly<Record<string, string>>;
  /** Whether a filter value `null` matches a null field (`Checkin_ToTime=null`) rather than being a value. */
  nullMatchesNull?: boolean;
}

export type FilterOperator = 'eq' | 'contains' | 'gte' | 'lte' | 'isNull';

export interface Filter {
  field: string;
  kind: WireKind;
  op: FilterOperator;
  value: string | number | boolean | Date;
}

export interface ListQuery {
  page: number;
  size: number;
  orderBy: string;
  direction: 1 | -1;
  filters: Filter[];
  /** Batch get (`id=[1,2,3]`): the ids asked for, or null for a paged list. */
  ids: number[] | null;
}

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 1000;

const ASCENDING = new Set(['1', '0', 'asc', 'ascending']);
const DESCENDING = new Set(['-1', 'desc', 'descending']);

const invalid = (property: string, message: string, value: unknown) => RecordValidationException.field(property, message, value);

function single(value: unknown): string {
  // A repeated parameter counts once: the last one given wins.
  return Array.isArray(value) ? String(value[value.length - 1]) : String(value);
}

function wholeNumber(name: string, text: string): number {
  if (!/^-?\d{1,10}$/.test(text.trim())) throw invalid(name, `${name} must be a whole number.`, text);
  return Number(text);
}

/** Batch get is `id` with a bracketed list (`[1,2]`, brackets encoded or not); any other value is a filter. */
const isBracketedList = (text: string) => /^\s*\[[^\]]*\]\s*$/.test(text);

function parseIds(text: string): number[] {
  const inner = text.trim().replace(/^\[/, '').replace(/\]$/, '').trim();
  const parts = inner === '' ? [] : inner.split(',').map((p) => p.trim());
  if (parts.length > MAX_PAGE_SIZE) throw invalid('id', `At most ${MAX_PAGE_SIZE} ids may be asked for at once.`, text);
  return parts.map((part) => {
    const id = /^\d{1,10}$/.test(part) ? Number(part) : NaN;
    if (!(id >= 1 && id <= MAX_ID)) throw invalid('id', 'id must be a list of positive integer ids such as [1,2,3].', text);
    return id;
  });
}

/**
 * The ids of the batch-get route (`…/batch?id=[1,2,3]`, brackets optional): every id asked for, or a
 * 400 naming `id` when there are none or one is not an id.
 */
export function parseBatchQuery(query: Readonly<Record<string, unknown>>): number[] {
  const given = Object.entries(query)
    .filter(([name]) => name.toLowerCase() === 'id')
    .map(([, value]) => value);
  const text = given.length === 1 && typeof given[0] === 'string' ? given[0] : undefined;
  if (text === undefined) throw invalid('id', 'id is required once: the ids of the records, such as [1,2,3].', given.length ? given : null);
  const ids = parseIds(isBracketedList(text) ? text : `[${text}]`);
  if (!ids.length) throw invalid('id', 'id must name at least one record, such as [1,2,3].', text);
  return ids;
}

function parseValue(param: string, field: ListField, text: string, bound: 'from' | 'to' | null): Filter['value'] {
  switch (field.kind) {
    case 'int':
    case 'money': {
      const value = text.trim() === '' ? NaN : Number(text);
      if (!Number.isFinite(value)) throw invalid(param, `${param} must be a number.`, text);
      return value;
    }
    case 'bool': {
      const lower = text.trim().toLowerCase();
      if (lower === 'true' || lower === '1') return true;
      if (lower === 'false' || lower === '0') return false;
      throw invalid(param, `${param} must be true or false.`, text);
    }
    case 'datetime': {
      const date = parseDateTime(text.trim());
      if (!date) throw invalid(param, `${param} must be a date or date-time such as 2025-01-15T10:30:00Z.`, text);
      // An inclusive upper bound given as a day covers that whole day.
      if (bound === 'to' && isDateOnly(text.trim())) return new Date(date.getTime() + 86_400_000 - 1);
      return date;
    }
    default:
      return text;
  }
}

/**
 * Reads a list request's query (docs/api.md §1.3): paging, sorting, `{Entity}_{Field}` filters with
 * `from_`/`to_` ranges, and the batch-get `id` list. Parameter names are case-insensitive; values are
 * only ever returned as typed values for binding, never as SQL.
 */
export function parseListQuery(query: Readonly<Record<string, unknown>>, schema: ListSchema): ListQuery {
  const fields = new Map(schema.fields.map((f) => [f.name.toLowerCase(), f]));
  const navigations = new Map(Object.entries(schema.navigations ?? {}).map(([nav, field]) => [nav.toLowerCase(), field]));
  for (const [alias, field] of Object.entries(schema.aliases ?? {})) navigations.set(alias.toLowerCase(), field);
  const prefix = `${schema.entityName.toLowerCase()}_`;
  const result: ListQuery = { page: 1, size: DEFAULT_PAGE_SIZE, orderBy: 'Id', direction: 1, filters: [], ids: null };

  for (const [rawName, rawValue] of Object.entries(query)) {
    if (rawValue === undefined) continue;
    const name = rawName.toLowerCase();
    const text = single(rawValue);
    if (name === 'page') result.page = Math.max(1, wholeNumber('page', text));
    else if (name === 'size') result.size = Math.min(MAX_PAGE_SIZE, Math.max(1, wholeNumber('size', text)));
    else if (name === 'orderby') {
      const field = fields.get(text.trim().toLowerCase());
      if (!field || field.kind === 'idList') throw invalid('orderBy', `orderBy: there is no field "${text}" to order by.`, text);
      result.orderBy = field.name;
    } else if (name === 'dir') {
      const dir = text.trim().toLowerCase();
      if (ASCENDING.has(dir)) result.direction = 1;
      else if (DESCENDING.has(dir)) result.direction = -1;
      else throw invalid('dir', 'dir must be 1, 0, asc, Ascending, -1, desc or Descending.', text);
    } else if (name === 'id' && isBracketedList(text)) result.ids = parseIds(text);
    else if (name === 'id') {
      // Any other `id`/`Id` value is the equality filter on the record's Id, answered with the list envelope.
      const field = fields.get('id') ?? { name: 'Id', kind: 'int' as const };
      result.filters.push({ field: field.name, kind: field.kind, op: 'eq', value: parseValue(rawName, field, text, null) });
    } else {
      const bound = name.startsWith('from_') ? 'from' : name.startsWith('to_') ? 'to' : null;
      const rest = bound ? name.slice(bound.length + 1) : name;
      if (!rest.startsWith(prefix)) continue; // not a filter of this record type (cache busters and the like)
      const fieldName = rest.slice(prefix.length);
      const field = fields.get(fieldName) ?? fields.get(navigations.get(fieldName)?.toLowerCase() ?? '');
      if (!field || field.kind === 'idList') throw invalid(rawName, `${rawName}: there is no field "${fieldName}" to filter by.`, text);
      if (bound && !['int', 'money', 'datetime'].includes(field.kind)) {
        throw invalid(rawName, `${rawName}: ranges apply to numbers and dates only.`, text);
      }
      if (!bound && schema.nullMatchesNull && text.trim().toLowerCase() === 'null') {
        result.filters.push({ field: field.name, kind: field.kind, op: 'isNull', value: '' });
        continue;
      }
      const value = parseValue(rawName, field, text, bound);
      const op: FilterOperator = bound === 'from' ? 'gte' : bound === 'to' ? 'lte' : field.kind === 'text' ? 'contains' : 'eq';
      result.filters.push({ field: field.name, kind: field.kind, op, value });
    }
  }
  return result;
}
