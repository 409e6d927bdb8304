import { HttpStatus } from '@nestjs/common';
import { failureConfirmation } from '../records/envelopes.js';
import { WireResponseException } from '../records/errors.js';

/** The deepest nesting a request body may have. */
export const MAX_BODY_DEPTH = 32;
/** The most keys and array elements a request body may hold in all. */
export const MAX_BODY_NODES = 10_000;

const OPEN_OBJECT = 0x7b,
  CLOSE_OBJECT = 0x7d,
  OPEN_ARRAY = 0x5b,
  CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22,
  COLON = 0x3a,
  COMMA = 0x2c;
const STRUCTURE = /["{}[\]:,]/g;
const STRING = /"(?:[^"\\]|\\.)*"/y;

const tooComplex = () =>
  new WireResponseException(
    failureConfirmation(
      400,
      `The request body is nested deeper than ${MAX_BODY_DEPTH} levels or holds more than ${MAX_BODY_NODES} keys and array elements.`,
    ),
    HttpStatus.BAD_REQUEST,
  );

/**
 * Whether JSON text stays within the depth and size limits, judged from the text in one pass before it
 * is parsed: parsing a hostile body (100,000 keys, thousands of levels) takes tens of milliseconds,
 * this scan a fraction of that, and the parsed value would still go through validation. Keys are the
 * colons outside strings; array elements are the commas inside arrays plus one per non-empty array.
 * Text that is not JSON passes here and fails in the parser.
 */
export function withinBodyLimits(text: string): boolean {
  // Bodies this short hold too few tokens to break either limit.
  if (text.length <= MAX_BODY_DEPTH) return true;
  let depth = 0;
  let nodes = 0;
  // One bit per level: set when the container at that level is an array.
  let arrays = 0;
  let awaitingFirstElement = false;
  // The regular expression finds the next structural character natively: runs of digits, literals and
  // white space cost no JavaScript step each.
  // (Shared expressions: the scan is synchronous, so nothing else moves their lastIndex meanwhile.)
  const structure = STRUCTURE;
  structure.lastIndex = 0;
  while (structure.test(text)) {
    const i = structure.lastIndex - 1;
    const c = text.charCodeAt(i);
    if (awaitingFirstElement) {
      awaitingFirstElement = false;
      if (c !== CLOSE_ARRAY || /\S/.test(text.slice(lastStructure(text, i), i))) nodes++;
    }
    if (c === QUOTE) {
      // Skip the string, natively too (text that ends inside one is left to the parser to refuse).
      const string = STRING;
      string.lastIndex = i;
      if (!string.test(text)) return true;
      structure.lastIndex = string.lastIndex;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > MAX_BODY_DEPTH) return false;
      if (c === OPEN_ARRAY) {
        arrays |= 1 << depth;
        awaitingFirstElement = true;
      } else arrays &= ~(1 << depth);
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
    } else if (c === COLON || (c === COMMA && arrays & (1 << depth))) {
      if (++nodes > MAX_BODY_NODES) return false;
    }
  }
  return nodes <= MAX_BODY_NODES;
}

/** Where the structural character before position `i` ends (an opening bracket of an array). */
function lastStructure(text: string, i: number): number {
  return text.lastIndexOf('[', i - 1) + 1;
}

/** A charset other than UTF-8 named by a Content-Type: such a body would be read garbled (415). */
export function refuseForeignCharset(contentType: string | undefined): void {
  if (!contentType) return;
  const match = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType);
  if (match && !/^utf-?8$/i.test(match[1])) {
    throw new WireResponseException(
      failureConfirmation(415, 'The request body must be encoded in UTF-8.'),
      HttpStatus.UNSUPPORTED_MEDIA_TYPE,
    );
  }
}

/** Keys that would reach an object's prototype if copied: dropped wherever they appear. */
function dropPrototypeKeys(value: unknown): void {
  const pending: unknown[] = [value];
  while (pending.length) {
    const node = pending.pop();
    if (node === null || typeof node !== 'object') continue;
    if (!Array.isArray(node)) {
      const record = node as Record<string, unknown>;
      if (Object.hasOwn(record, '__proto__')) Reflect.deleteProperty(record, '__proto__');
      if (Object.hasOwn(record, 'constructor')) Reflect.deleteProperty(record, 'constructor');
    }
    for (const child of Object.values(node)) if (child !== null && typeof child === 'object') pending.push(child);
  }
}

/**
 * A JSON request body, parsed only when it is UTF-8 and within the limits (400 otherwise, before any
 * validation), with prototype keys dropped.
 */
export function parseJsonBody(text: string, contentType: string | undefined): unknown {
  refuseForeignCharset(contentType);
  if (!withinBodyLimits(text)) throw tooComplex();
  if (text.trim() === '')
    throw new WireResponseException(
      failureConfirmation(400, 'The request body is empty; a JSON object is expected.'),
      HttpStatus.BAD_REQUEST,
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new WireResponseException(failureConfirmation(400, 'The request body is not valid JSON.'), HttpStatus.BAD_REQUEST);
  }
  // As secure-json-parse does: only a body that names such a key is walked.
  if (text.includes('__proto__') || text.includes('constructor')) dropPrototypeKeys(parsed);
  return parsed;
}
