import { RecordValidationException } from '../records/errors.js';
import type { WireRecord } from '../records/record-definition.js';

// What both kinds of invoice share at issuance (docs/api.md §3.1), besides their SQL
// (InvoiceIssuanceRepository): the snapshot of values copied from other records, so that later edits
// to those records never reach it, and the business an invoice keeps.

/** Whether a save points the field at another record than the stored one (always true on create). */
export function repointed(existing: WireRecord | null, values: Record<string, unknown>, field: string): boolean {
  return existing === null || (values[field] !== undefined && values[field] !== existing[field]);
}

/** An issued invoice keeps its business: its number belongs to that business's series. */
export function refuseBusinessChange(existing: WireRecord | null, values: Record<string, unknown>): void {
  if (existing && repointed(existing, values, 'BusinessId')) {
    throw RecordValidationException.field(
      'BusinessId',
      `An issued invoice cannot move to another business (it belongs to Business ${existing.BusinessId}).`,
      values.BusinessId,
    );
  }
}
