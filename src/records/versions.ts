import { failureConfirmation } from './envelopes.js';
import { WireResponseException } from './errors.js';
import type { WireRecord } from './record-definition.js';
import type { WriteScope } from '../persistence/write-scope.js';

/**
 * Record versions (docs/api.md §11.6): every record has a Version column, 1 at creation and
 * raised by every update, the side effects of domain rules included. It is never a field on the
 * wire; a read carries it under this symbol (which JSON leaves out) so the ETag costs no query.
 */
export const VERSION = Symbol('Version');

/** The strong ETag of a record: its UniqueId and version, opaque to clients. */
export const etagOf = (uniqueId: unknown, version: unknown): string => `"${String(uniqueId)}.${Number(version)}"`;

/** The ETag of a record as a read returned it (undefined for records read without their version). */
export const recordEtag = (record: WireRecord): string | undefined => {
  const version = (record as Record<symbol, unknown>)[VERSION];
  return version === undefined ? undefined : etagOf(record.UniqueId, version);
};

/** The entity tags of an If-Match or If-None-Match header; `*` stands for any. */
function tagsOf(header: string): string[] {
  return header
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
}

/** If-Match: strong comparison, so weak tags never match; `*` matches any existing record. */
export function ifMatchAccepts(header: string, etag: string): boolean {
  return tagsOf(header).some((tag) => tag === '*' || tag === etag);
}

/** If-None-Match: weak comparison (a weak tag matches the strong one of the same version). */
export function ifNoneMatchMatches(header: string, etag: string): boolean {
  return tagsOf(header).some((tag) => tag === '*' || tag.replace(/^W\//, '') === etag);
}

/** 412: the record changed since the client read it; the answer carries the current ETag. */
export function preconditionFailed(currentEtag: string | undefined): WireResponseException {
  const message = 'The record has changed since it was read (If-Match does not match its current ETag); read it again and retry.';
  return new WireResponseException(failureConfirmation(412, message), 412, currentEtag ? { ETag: currentEtag } : {});
}

/**
 * The version an update or delete must find, from the request's If-Match and the stored record:
 * null without If-Match (the write is unconditional), 412 when no tag matches. The write then
 * applies only to that version (`... WHERE Id = ? AND Version = ?`), so of two writers that read
 * the same version one wins and the other gets 412.
 */
export function expectedVersion(scope: WriteScope | undefined, existing: WireRecord): number | null {
  if (scope?.ifMatch === undefined) return null;
  const etag = recordEtag(existing);
  if (etag === undefined || !ifMatchAccepts(scope.ifMatch, etag)) throw preconditionFailed(etag);
  return Number((existing as Record<symbol, unknown>)[VERSION]);
}
