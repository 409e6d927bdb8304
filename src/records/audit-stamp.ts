import { randomUUID } from 'node:crypto';
import type { Principal } from '../platform/principal.js';

// The audit stamp every record carries (docs/architecture.md, "The audit stamp"): made here and only
// here, for the record machinery and for every write a domain rule makes by hand, so that all say the
// same of who wrote what when. A spec (audit-stamp.spec.ts) fails when one is built elsewhere.

/** Who a stamp names: a principal (its email), an email, or nobody (null). */
export type Stamper = Principal | string | null | undefined;

/** The columns a new record is stamped with. */
export type CreateStamp = {
  UniqueId: string;
  CreatedOn: Date;
  UpdatedOn: Date;
  UpdatedBy: string | null;
  IsNew: true;
};

/** The columns a change stamps on a record. */
export type UpdateStamp = {
  UpdatedOn: Date;
  UpdatedBy: string | null;
  IsNew: false;
};

const nameOf = (by: Stamper): string | null => (typeof by === 'string' ? by : (by?.email ?? null));

/** The stamp of a new record written at `now` by `by`; `uniqueId` when the caller chose it beforehand. */
export function createStamp(by: Stamper, now: Date = new Date(), uniqueId: string = randomUUID()): CreateStamp {
  return { UniqueId: uniqueId, CreatedOn: now, UpdatedOn: now, UpdatedBy: nameOf(by), IsNew: true };
}

/** The stamp of a change written at `now` by `by`. */
export function updateStamp(by: Stamper, now: Date = new Date()): UpdateStamp {
  return { UpdatedOn: now, UpdatedBy: nameOf(by), IsNew: false };
}

/**
 * The update stamp as part of an UPDATE's SET list, for a repository's conditional UPDATE: the version
 * raised, UpdatedOn and UpdatedBy bound (`updateStampParameters`, in that order), IsNew cleared.
 */
export function updateStampSql(id: (name: string) => string): string {
  return `${id('Version')} = ${id('Version')} + 1, ${id('UpdatedOn')} = ?, ${id('UpdatedBy')} = ?, ${id('IsNew')} = 0`;
}

/** The bound values of `updateStampSql`: UpdatedOn as `dateParam` binds a date, and UpdatedBy. */
export function updateStampParameters(dateParam: (date: Date) => string, by: Stamper, now: Date = new Date()): [string, string | null] {
  return [dateParam(now), nameOf(by)];
}
