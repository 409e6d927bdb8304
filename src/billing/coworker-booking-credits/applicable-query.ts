import { RecordValidationException } from '../../records/errors.js';
import { MAX_ID } from '../../records/validation/fields.js';
import type { CreditUse } from './credit-rules.js';

/** What `GET /api/billing/coworkerbookingcredits/applicable` asks (docs/api.md §3.1). */
export interface ApplicableQuery {
  coworkerId: number;
  use: CreditUse;
}

/** The uses a credit can be asked about, by query parameter; exactly one is given. */
const USES = ['resourceTypeId', 'eventCategoryId', 'productId', 'passId', 'charge'] as const;
export const USE_PARAMETERS = 'resourceTypeId, eventCategoryId, productId, passId or charge=true';

const invalid = (name: string, message: string, value: unknown) => RecordValidationException.field(name, message, value ?? null);

function positiveId(name: string, text: string): number {
  const id = /^\d{1,10}$/.test(text.trim()) ? Number(text) : NaN;
  if (!(id >= 1 && id <= MAX_ID)) throw invalid(name, `${name} must be a positive integer id.`, text);
  return id;
}

/**
 * Reads the query: `coworkerId` (required) and exactly one use. Names are case-insensitive like
 * every query parameter; a repeated one counts once (the last wins); `charge=false` asks nothing.
 * Anything wrong is the 400 envelope naming the parameter.
 */
export function parseApplicableQuery(query: Readonly<Record<string, unknown>>): ApplicableQuery {
  const given = new Map<string, string>();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    given.set(name.toLowerCase(), Array.isArray(value) ? String(value[value.length - 1]) : String(value));
  }
  const coworker = given.get('coworkerid');
  if (coworker === undefined || coworker.trim() === '') throw invalid('coworkerId', 'coworkerId is required.', coworker);
  const coworkerId = positiveId('coworkerId', coworker);

  const uses: CreditUse[] = [];
  const named: string[] = [];
  for (const name of USES) {
    const text = given.get(name.toLowerCase());
    if (text === undefined) continue;
    if (name === 'charge') {
      const flag = text.trim().toLowerCase();
      if (flag !== 'true' && flag !== 'false') throw invalid('charge', 'charge must be true or false.', text);
      if (flag === 'false') continue;
      uses.push({ charge: true });
    } else {
      const id = positiveId(name, text);
      uses.push(
        name === 'resourceTypeId'
          ? { resourceTypeId: id }
          : name === 'eventCategoryId'
            ? { eventCategoryId: id }
            : name === 'productId'
              ? { productId: id }
              : { passId: id },
      );
    }
    named.push(name);
  }
  if (uses.length === 0) {
    throw invalid(USES.join('|'), `One of ${USE_PARAMETERS} is required: what the credits should pay for.`, null);
  }
  if (uses.length > 1) {
    throw new RecordValidationException(
      named.slice(1).map((name) => ({
        PropertyName: name,
        Message: `Give only one of ${USE_PARAMETERS} (${named[0]} is already given).`,
        AttemptedValue: given.get(name.toLowerCase()) ?? null,
      })),
    );
  }
  return { coworkerId, use: uses[0] };
}
