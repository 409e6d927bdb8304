import type { AnyClass } from './columns.js';
import type { Database } from '../persistence/database.js';
import type { FieldError } from './envelopes.js';
import type { RecordDefinition, WireRecord } from './record-definition.js';
import { RecordLinksRepository } from './record-links.repository.js';
import { referencesOf } from './validation/fields.js';
import type { RecordDto } from './validation/record.dto.js';
import type { Tx } from '../persistence/tx.js';

/** The business of each of the ids of a record type, by its definition's scope (none: not scoped by one). */
async function businessesOf(
  db: Database,
  types: readonly RecordDefinition<any>[],
  target: AnyClass,
  ids: number[],
  tx: Tx | undefined,
): Promise<Map<number, number> | null> {
  const scope = types.find((definition) => definition.entity === target)?.business;
  if (!scope || 'links' in scope) return null;
  return new RecordLinksRepository(db).businessesOf(target, scope, ids, tx);
}

/** The field whose value decides a record's business (its column, or the parent it is scoped through). */
function scopeField(definition: RecordDefinition<any>): string | null {
  const scope = definition.business;
  if (!scope || 'links' in scope) return null;
  return 'via' in scope ? scope.on : scope.column;
}

/**
 * References declared `sameBusiness` (a customer, the tariffs of a product) must name records of the
 * referring record's own business: otherwise one business's records would show another's names. A
 * reference is checked when the request gives it, or when the record moves to another business. Returns
 * an error naming each field that points across.
 */
export async function crossBusinessReferences(
  db: Database,
  types: readonly RecordDefinition<any>[],
  definition: RecordDefinition<any>,
  dto: RecordDto,
  record: { values: Record<string, unknown>; existing: WireRecord | null },
  businessOf: (values: Record<string, unknown>) => Promise<number | null>,
  tx: Tx | undefined,
): Promise<FieldError[]> {
  const references = referencesOf(dto.constructor as AnyClass).filter((reference) => reference.sameBusiness);
  if (!references.length) return [];
  const given = dto as unknown as Record<string, unknown>;
  const { values, existing } = record;
  const field = scopeField(definition);
  const moved = existing !== null && field !== null && values[field] !== undefined && values[field] !== existing[field];
  const checked = references.filter((reference) => given[reference.property] !== undefined || moved);
  if (!checked.length) return [];
  // Assigned, not spread: a spread object is made in the old generation on Node 20 (withFields, record-writes.ts).
  const merged: Record<string, unknown> = Object.assign({}, existing, values);
  const business = await businessOf(merged);
  if (business === null) return [];
  const errors: FieldError[] = [];
  for (const reference of checked) {
    const value = given[reference.property] !== undefined ? given[reference.property] : merged[reference.property];
    if (value === null || value === undefined) continue;
    if (reference.keepsStored && existing && value === existing[reference.property]) continue;
    const ids = [...new Set(reference.list ? (value as number[]) : [value as number])];
    if (!ids.length) continue;
    const target = reference.target();
    const owners = await businessesOf(db, types, target, ids, tx);
    if (!owners) continue;
    // Ids that exist nowhere are the reference check's to name.
    const foreign = ids.filter((id) => owners.has(id) && owners.get(id) !== business);
    if (foreign.length) {
      errors.push({
        PropertyName: reference.property,
        AttemptedValue: value,
        Message: `${target.name} ${foreign.join(', ')} does not belong to Business ${business}`,
      });
    }
  }
  return errors;
}
