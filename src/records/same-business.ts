import type { AnyClass } from './columns.js';
import type { Database } from '../persistence/database.js';
import type { FieldError } from './envelopes.js';
import { ownBusinessColumn, type BusinessScope, type RecordDefinition, type WireRecord } from './record-definition.js';
import { RecordLinksRepository } from './record-links.repository.js';
import { referencesOf } from './validation/fields.js';
import type { RecordDto } from './validation/record.dto.js';
import type { Tx } from '../persistence/tx.js';

/**
 * The business of referenced records, looked up at most once per write: the reference check of a
 * same-business reference (a check-in's customer) reads each id's business with its existence, and
 * the same-business check after it answers from what that read found, one statement instead of two.
 */
export class ReferencedBusinesses {
  /** Per type: the business of each id found, and the ids looked up and not found. */
  private readonly found = new Map<AnyClass, { owners: Map<number, number>; missing: Set<number> }>();

  constructor(
    private readonly db: Database,
    private readonly types: readonly RecordDefinition<any>[],
    readonly tx: Tx | undefined,
  ) {}

  /**
   * Whether the existence check of `target` can be this look-up: a type scoped by a column of its own
   * (a row through a parent may lack the parent, and a link table lists no single business).
   */
  answersExistence(target: AnyClass): boolean {
    return ownBusinessColumn(this.scopeOf(target)) !== null;
  }

  /** The business of each of the ids that exist (non-empty ids), or null when the type has none. */
  async of(target: AnyClass, ids: readonly number[]): Promise<Map<number, number> | null> {
    const scope = this.scopeOf(target);
    if (!scope || 'links' in scope) return null;
    let known = this.found.get(target);
    if (known && ids.every((id) => known!.owners.has(id) || known!.missing.has(id))) return known.owners;
    const owners = await new RecordLinksRepository(this.db).businessesOf(target, scope, ids, this.tx);
    known ??= { owners: new Map(), missing: new Set() };
    for (const id of ids) {
      if (owners.has(id)) known.owners.set(id, owners.get(id)!);
      else known.missing.add(id);
    }
    this.found.set(target, known);
    return known.owners;
  }

  private scopeOf(target: AnyClass): BusinessScope | undefined {
    return this.types.find((definition) => definition.entity === target)?.business;
  }
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
  lookups: ReferencedBusinesses,
  definition: RecordDefinition<any>,
  dto: RecordDto,
  record: { values: Record<string, unknown>; existing: WireRecord | null },
  businessOf: (values: Record<string, unknown>) => Promise<number | null>,
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
    const owners = await lookups.of(target, ids);
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
