import type { EntityManager } from 'typeorm';
import type { AnyClass } from './columns.js';
import type { Database } from './database.js';
import { recordDefinitions } from './record-definition.js';
import { referencesOf } from './validation/fields.js';

/**
 * The record types that name a record in an id list kept as a JSON column (`ElegibleProducts`,
 * `ElegibleTariffs`), which no foreign key guards: deleting the record would leave ids that point at
 * nothing, and the records could no longer be PUT back as read. The lists are written as JSON text
 * without spaces (`[1,2,3]`), so four patterns find an id anywhere in one.
 */
export async function typesListing(db: Database, entity: AnyClass, id: number, manager: EntityManager): Promise<string[]> {
  const names: string[] = [];
  const patterns = [`[${id}]`, `[${id},%`, `%,${id},%`, `%,${id}]`];
  for (const definition of recordDefinitions()) {
    const joinTables = new Set(Object.keys(definition.lists ?? {}));
    const metadata = db.dataSource.getMetadata(definition.entity);
    // Request-only lists (a customer's AddedBusinesses) are stored nowhere.
    const stored = (property: string) => Boolean(metadata.findColumnWithPropertyName(property));
    const columns = [...new Set([definition.dto, definition.updateDto]
      .flatMap((dto) => (dto ? referencesOf(dto) : []))
      .filter((reference) => reference.list && !joinTables.has(reference.property) && stored(reference.property) && reference.target() === entity)
      .map((reference) => reference.property))];
    if (!columns.length) continue;
    const condition = columns.map((column) => patterns.map(() => `${db.id(column)} LIKE ?`).join(' OR ')).join(' OR ');
    const found = await db.query(`SELECT 1 AS x FROM ${db.tableOf(definition.entity)} WHERE ${condition} LIMIT 1`, columns.flatMap(() => patterns), manager);
    if (found.length) names.push(definition.name);
  }
  return names;
}
