import { DefaultNamingStrategy, getMetadataArgsStorage, type Table, type View } from 'typeorm';

const tableName = (tableOrName: Table | View | string) =>
  (typeof tableOrName === 'string' ? tableOrName : tableOrName.name).split('.').pop()!;

/**
 * Whether the entity of a table declares these columns unique (`@Unique([...])` on it or on a class it
 * extends, or `@Index({ unique: true })`). MySQL stores unique constraints as unique indexes and
 * TypeORM names those through indexName(), which is not told that they are unique; this tells.
 */
function declaredUnique(table: string, columns: string[]): boolean {
  const storage = getMetadataArgsStorage();
  const entity = storage.tables.find((args) => args.name === table)?.target;
  if (typeof entity !== 'function') return false;
  const appliesTo = (target: unknown) => typeof target === 'function' && (target === entity || entity.prototype instanceof target);
  const same = (given: unknown) => Array.isArray(given) && given.length === columns.length && given.every((name, i) => name === columns[i]);
  return (
    storage.uniques.some((args) => appliesTo(args.target) && same(args.columns)) ||
    storage.indices.some((args) => args.unique === true && appliesTo(args.target) && same(args.columns))
  );
}

/**
 * Names indexes, unique constraints and foreign keys the way the migrations do (migration-helpers.ts):
 * `IX_<table>_<columns>`, `UQ_<table>_<columns>`, `FK_<table>_<columns>`. Entities then declare their
 * indexes and keys without naming them, and TypeORM's schema diff (migration:generate) matches them
 * with what the migrations created instead of proposing to drop and re-create them.
 */
export class SchemaNamingStrategy extends DefaultNamingStrategy {
  override indexName(tableOrName: Table | View | string, columnNames: string[]): string {
    const table = tableName(tableOrName);
    return `${declaredUnique(table, columnNames) ? 'UQ' : 'IX'}_${table}_${columnNames.join('_')}`;
  }

  override uniqueConstraintName(tableOrName: Table | string, columnNames: string[]): string {
    return `UQ_${tableName(tableOrName)}_${columnNames.join('_')}`;
  }

  override foreignKeyName(tableOrName: Table | string, columnNames: string[]): string {
    return `FK_${tableName(tableOrName)}_${columnNames.join('_')}`;
  }
}
