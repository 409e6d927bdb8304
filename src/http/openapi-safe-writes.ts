import type { OpenAPIObject } from '@nestjs/swagger';

type Operation = {
  parameters?: Array<Record<string, unknown>>;
  responses?: Record<string, { description: string; headers?: Record<string, unknown> }>;
};

const header = (description: string) => ({ description, schema: { type: 'string' } });
const ETAG = { ETag: header('Strong entity tag of the record as written or read (changes with every update).') };

/** Routes whose POSTs take no Idempotency-Key. */
const NOT_IDEMPOTENT = new Set(['/api/token']);

function addParameter(operation: Operation, name: string, description: string): void {
  operation.parameters ??= [];
  if (!operation.parameters.some((p) => p.in === 'header' && p.name === name)) {
    operation.parameters.push({ name, in: 'header', required: false, description, schema: { type: 'string' } });
  }
}

function addResponse(operation: Operation, status: string, description: string, headers?: Record<string, unknown>): void {
  operation.responses ??= {};
  operation.responses[status] ??= { description };
  if (headers) operation.responses[status].headers = { ...operation.responses[status].headers, ...headers };
}

/**
 * Documents the safe-write headers (docs/api.md §11.6) on every operation they apply to:
 * Idempotency-Key and Idempotent-Replayed on POSTs, If-Match and 412 on PUT and DELETE, ETag on
 * record reads and writes, If-None-Match and 304 on GET by id.
 */
export function documentSafeWrites(document: OpenAPIObject, recordPaths: ReadonlySet<string>): void {
  for (const [path, item] of Object.entries(document.paths)) {
    const record = recordPaths.has(path.replace(/\/\{id\}$/, ''));
    const operations = item as Record<string, Operation>;
    const post = operations.post;
    if (post && !NOT_IDEMPOTENT.has(path)) {
      addParameter(
        post,
        'Idempotency-Key',
        'Optional, 1 to 255 printable ASCII characters: a retry with the same key and body gets the first answer again (with Idempotent-Replayed: true) and writes nothing; kept 24 hours, per user and path.',
      );
      addResponse(post, '200', 'Success', {
        'Idempotent-Replayed': header('"true" when this is the stored answer of an earlier request with the same Idempotency-Key.'),
        ...(record ? ETAG : {}),
      });
      addResponse(post, '409', 'A request with this Idempotency-Key is still being processed (Retry-After: 1).', {
        'Retry-After': header('Seconds to wait before retrying.'),
      });
      addResponse(post, '422', 'The Idempotency-Key was already used with another body.');
    }
    for (const method of ['put', 'delete'] as const) {
      const operation = operations[method];
      if (!operation) continue;
      addParameter(
        operation,
        'If-Match',
        "Optional: the ETag(s) the client read, or *. When none matches the record's current ETag: 412 and nothing written. Weak tags never match.",
      );
      addResponse(operation, '412', "The record changed since it was read; the current ETag is in the answer's headers.", ETAG);
      if (method === 'put') addResponse(operation, '200', 'Success', ETAG);
    }
    const get = operations.get;
    if (get && record && path.endsWith('/{id}')) {
      addParameter(get, 'If-None-Match', "Optional: when it matches the record's current ETag, the answer is 304 with no body.");
      addResponse(get, '200', 'The record', ETAG);
      addResponse(get, '304', 'Not modified: the If-None-Match matched', ETAG);
    }
  }
}
