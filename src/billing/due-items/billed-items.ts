import type { Database } from '../../persistence/database.js';
import type { FieldError } from '../../records/envelopes.js';
import { RecordValidationException } from '../../records/errors.js';
import type { WireRecord } from '../../records/record-definition.js';
import { DueItemsRepository, type SourceColumn } from './due-items.repository.js';
import type { Tx } from '../../persistence/tx.js';

// What the records billing reads share once they are billed (docs/billing.md, last point): a record
// with billed lines cannot be deleted, and its billed fields cannot change what was billed.

export type { SourceColumn };

/** Whether any invoice line was billed from the source with this UniqueId. */
export function hasBilledLines(db: Database, column: SourceColumn, uniqueId: string, tx?: Tx): Promise<boolean> {
  return new DueItemsRepository(db).hasBilledLines(column, uniqueId, tx);
}

/** The refusal of a delete of a billed record. */
export function billedDeleteRefusal(entity: string, id: unknown): string {
  return `${entity} ${id} cannot be deleted: it has been billed (invoice lines name it). Credit the invoice instead.`;
}

/** Comparable form of a field's value: dates as their time, numbers as numbers, absent as undefined. */
const comparable = (value: unknown): unknown => {
  if (value === undefined) return undefined;
  if (value === null) return null;
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'string' && /^\d{4}-\d\d-\d\dT/.test(value)) return new Date(value).getTime();
  if (typeof value === 'boolean') return value;
  return typeof value === 'number' || /^-?\d+(\.\d+)?$/.test(String(value)) ? Number(value) : value;
};

/**
 * The fields of a billed record that an update may not change (400 naming each): `values` are what
 * the update writes (absent: kept), `existing` the record as read.
 */
export function refuseBilledChanges(
  entity: string,
  fields: readonly string[],
  values: Readonly<Record<string, unknown>>,
  existing: WireRecord,
  extra: FieldError[] = [],
): void {
  const errors: FieldError[] = [...extra];
  for (const field of fields) {
    if (values[field] === undefined) continue;
    if (comparable(values[field]) === comparable(existing[field])) continue;
    errors.push({
      PropertyName: field,
      AttemptedValue: values[field] instanceof Date ? values[field].toISOString() : values[field],
      Message: `${field} of a billed ${entity} cannot be changed: it would change what was billed.`,
    });
  }
  if (errors.length) throw new RecordValidationException(errors);
}
