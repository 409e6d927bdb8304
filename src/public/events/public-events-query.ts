import { RecordValidationException } from '../../records/errors.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../records/list-query.js';
import { MAX_ID } from '../../records/validation/fields.js';

/** The query of `GET /api/public/events` (docs/api.md §3.2). */
export interface PublicEventsQuery {
  pastEvents: boolean;
  page: number;
  /** `top`: the page size. */
  size: number;
  /** Case-insensitive match on the name; null for none. */
  search: string | null;
  businessId: number | null;
}

const SEARCH_MAX = 255;

const invalid = (name: string, message: string, value: string) => RecordValidationException.field(name, message, value);

function wholeNumber(name: string, text: string): number {
  if (!/^-?\d{1,10}$/.test(text.trim())) throw invalid(name, `${name} must be a whole number.`, text);
  return Number(text);
}

/**
 * Reads the public event list's query: `pastEvents`, `page`, `top`, `search`, `businessId`, names
 * case-insensitive, other parameters ignored. A value that cannot be read is a 400 naming it.
 */
export function parsePublicEventsQuery(query: Readonly<Record<string, unknown>>): PublicEventsQuery {
  const result: PublicEventsQuery = { pastEvents: false, page: 1, size: DEFAULT_PAGE_SIZE, search: null, businessId: null };
  for (const [rawName, rawValue] of Object.entries(query)) {
    if (rawValue === undefined) continue;
    // A repeated parameter counts once: the last one given wins.
    const text = String(Array.isArray(rawValue) ? rawValue[rawValue.length - 1] : rawValue);
    switch (rawName.toLowerCase()) {
      case 'pastevents': {
        const lower = text.trim().toLowerCase();
        if (lower === 'true' || lower === '1') result.pastEvents = true;
        else if (lower === 'false' || lower === '0') result.pastEvents = false;
        else throw invalid('pastEvents', 'pastEvents must be true or false.', text);
        break;
      }
      case 'page':
        result.page = Math.max(1, wholeNumber('page', text));
        break;
      case 'top':
        result.size = Math.min(MAX_PAGE_SIZE, Math.max(1, wholeNumber('top', text)));
        break;
      case 'search':
        if (text.length > SEARCH_MAX) throw invalid('search', `search must be at most ${SEARCH_MAX} characters long.`, text);
        result.search = text.trim() === '' ? null : text.trim();
        break;
      case 'businessid': {
        const id = /^\d{1,10}$/.test(text.trim()) ? Number(text) : NaN;
        if (!(id >= 1 && id <= MAX_ID)) throw invalid('businessId', 'businessId must be a positive integer id.', text);
        result.businessId = id;
        break;
      }
      default:
        break;
    }
  }
  return result;
}
