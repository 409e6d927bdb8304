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
 * Every field declared to name a record of `entity` (`@Reference`, `@IdList({ references })` in a
 * DTO) that no foreign key keeps from pointing at a deleted record: id lists in join tables (whose
 * foreign keys remove the pair with the listed record), id lists kept as JSON text, and ids in a column
 * without a foreign key. Ids a foreign key guards are left to it (RESTRICT refuses the delete; CASCADE
 * and SET NULL are the declared intent). Request-only fields (a customer's `AddedBusinesses`) are
 * stored nowhere and name nothing.
 */
function namingFields(db: Database, types: readonly RecordDefinition<any>[], entity: AnyClass, sameBusinessOnly = false): NamingField[] {
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

/** By the application's list of record types (RecordTypes.definitions(), one array per application). */
const fieldsByEntity = new WeakMap<readonly RecordDefinition<any>[], Map<AnyClass, NamingField[]>>();
const sameBusinessFieldsByEntity = new WeakMap<readonly RecordDefinition<any>[], Map<AnyClass, NamingField[]>>();

/** The naming fields of `entity` among `types`, worked out once per application. */
function fieldsOf(
  cache: WeakMap<readonly RecordDefinition<any>[], Map<AnyClass, NamingField[]>>,
  db: Database,
  types: readonly RecordDefinition<any>[],
  entity: AnyClass,
  sameBusinessOnly: boolean,
): NamingField[] {
  let byEntity = cache.get(types);
  if (!byEntity) cache.set(types, (byEntity = new Map()));
  let fields = byEntity.get(entity);
  if (!fields) byEntity.set(entity, (fields = namingFields(db, types, entity, sameBusinessOnly)));
  return fields;
}

/** Which of `fields` name record `id`, as `Type.Field`. */
async function naming(db: Database, fields: readonly NamingField[], id: number, tx: Tx): Promise<string[]> {
  const links = new RecordLinksRepository(db);
  const found: string[] = [];
  for (const field of fields) if (await links.names(field, id, tx)) found.push(`${field.type}.${field.property}`);
  return found;
}

/**
 * The fields of other records that name record `id` of `entity` where no foreign key would stop its
 * delete (`Product.Tariffs`, `CoworkerBookingCredit.ElegibleProducts`), as `Type.Field`. Run inside the
 * delete's transaction after the record's row is locked (`lockForDelete`): a write that adds such a
 * reference locks the referenced rows first (`RecordRepository.existingIds`), so the two take turns and
 * neither slips past the other (docs/api.md §1.2: nothing points at what is gone).
 */
export async function fieldsNaming(
  db: Database,
  types: readonly RecordDefinition<any>[],
  entity: AnyClass,
  id: number,
  tx: Tx,
): Promise<string[]> {
  return naming(db, fieldsOf(fieldsByEntity, db, types, entity, false), id, tx);
}

/**
 * The fields declared same-business (`@Reference(() => TimePass, { sameBusiness: true })`) that name
 * record `id` of `entity`, foreign key or not, as `Type.Field`: while one does, the record may not move
 * to another business, or those records would name another business's record (docs/api.md §1.2).
 */
export async function sameBusinessFieldsNaming(
  db: Database,
  types: readonly RecordDefinition<any>[],
  entity: AnyClass,
  id: number,
  tx: Tx,
): Promise<string[]> {
  return naming(db, fieldsOf(sameBusinessFieldsByEntity, db, types, entity, true), id, tx);
}

/**
 * Locks the row a delete removes before the delete looks for records naming it (MySQL/MariaDB: a
 * writer adding a reference holds the row in share mode, so one waits for the other; SQLite has one
 * writer at a time).
 */
export async function lockForDelete(db: Database, entity: AnyClass, id: number, tx: Tx): Promise<void> {
  await new RecordLinksRepository(db).lockRow(entity, id, tx);
}
