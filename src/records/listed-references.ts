import type { AnyClass } from './columns.js';
import type { Database } from '../persistence/database.js';
import type { RecordDefinition } from './record-definition.js';
import { RecordLinksRepository, type NamingColumn } from './record-links.repository.js';
import { referencesOf } from './validation/fields.js';
import type { Tx } from '../persistence/tx.js';

/** How one reference field is found to name a record: where it is stored. */
interface NamingField extends NamingColumn {
  /** The referring record type's name (`Product`). */
  type: string;
  /** The field (`Tariffs`). */
  property: string;
}

/**
 * Every field of `kind` declared to name a record of `entity` (`@Reference`, `@IdList({ references })` in
 * a DTO): id lists in join tables (whose foreign keys remove the pair with the listed record), id lists
 * kept as JSON text, and ids in a column (for `unguarded`, only a column without a foreign key).
 * Request-only fields (a customer's `AddedBusinesses`) are stored nowhere and name nothing.
 */
function namingFields(db: Database, types: readonly RecordDefinition<any>[], entity: AnyClass, kind: NamingKind): NamingField[] {
  const sameBusinessOnly = kind === 'sameBusiness';
  const fields: NamingField[] = [];
  for (const definition of types) {
    const metadata = db.dataSource.getMetadata(definition.entity);
    const seen = new Set<string>();
    for (const reference of [definition.dto, definition.updateDto].flatMap((dto) => (dto ? referencesOf(dto) : []))) {
      if (reference.target() !== entity || seen.has(reference.property) || (sameBusinessOnly && !reference.sameBusiness)) continue;
      seen.add(reference.property);
      const list = definition.lists?.[reference.property];
      const base = { type: definition.name, property: reference.property };
      if (list) {
        fields.push({ ...base, table: list.table, column: list.column, json: false });
        continue;
      }
      const column = metadata.findColumnWithPropertyName(reference.property);
      if (!column) continue;
      const stored = { table: metadata.tableName, column: column.databaseName };
      if (reference.list) {
        fields.push({ ...base, ...stored, json: true });
      } else if (sameBusinessOnly || !metadata.foreignKeys.some((key) => key.columns.some((c) => c.propertyName === reference.property))) {
        fields.push({ ...base, ...stored, json: false });
      }
    }
  }
  return fields;
}

/** By the application's list of record types (RecordTypes.definitions(), one array per application), then by kind. */
const fieldsByEntity = new WeakMap<readonly RecordDefinition<any>[], Map<AnyClass, Partial<Record<NamingKind, NamingField[]>>>>();

/**
 * Which fields naming a record count: for its delete, those no foreign key guards (`Product.Tariffs`,
 * `CoworkerBookingCredit.ElegibleProducts`: RESTRICT refuses the rest, CASCADE and SET NULL are the
 * declared intent); for its move to another business, every same-business one, foreign key or not (those
 * records would then name another business's record).
 */
export type NamingKind = 'unguarded' | 'sameBusiness';

/**
 * Locks record `id` of `entity`, then finds the fields of other records of `kind` that name it, as
 * `Type.Field`. The row lock comes first (MySQL/MariaDB; SQLite has one writer at a time): a write that
 * adds such a reference locks the referenced rows first (`RecordRepository.existingIds`), so the two take
 * turns and neither slips past the other (docs/api.md §1.2: nothing points at what is gone, or elsewhere).
 */
export async function lockedAndNamedBy(
  db: Database,
  types: readonly RecordDefinition<any>[],
  entity: AnyClass,
  id: number,
  tx: Tx,
  kind: NamingKind,
): Promise<string[]> {
  let byEntity = fieldsByEntity.get(types);
  if (!byEntity) fieldsByEntity.set(types, (byEntity = new Map()));
  let byKind = byEntity.get(entity);
  if (!byKind) byEntity.set(entity, (byKind = {}));
  const fields = (byKind[kind] ??= namingFields(db, types, entity, kind));
  const links = new RecordLinksRepository(db);
  await links.lockRow(entity, id, tx);
  const naming: string[] = [];
  for (const field of fields) if (await links.names(field, id, tx)) naming.push(`${field.type}.${field.property}`);
  return naming;
}

/** The record types of `Type.Field` names (lockedAndNamedBy), each once. */
export function namingTypes(naming: readonly string[]): string[] {
  return [...new Set(naming.map((field) => field.split('.')[0]))];
}
