import type { DataSource } from 'typeorm';
import { SchemaRepository, type NamePair } from './schema.repository.js';

/**
 * The names in a MySQL schema: tables, and per table its columns, indexes and foreign keys, each as
 * `table` or `table\u0000name`.
 */
interface SchemaNames {
  tables: string[];
  columns: string[];
  indexes: string[];
  foreignKeys: string[];
}

const SEPARATOR = '\u0000';

/** The current database's schema names, read from information_schema. */
export async function readSchemaNames(dataSource: DataSource): Promise<string> {
  const schema = new SchemaRepository(dataSource);
  const pairs = (rows: NamePair[]) => rows.map((row) => `${row.t}${SEPARATOR}${row.n}`);
  const names: SchemaNames = {
    tables: await schema.tables(),
    columns: pairs(await schema.columns()),
    indexes: pairs(await schema.indexes()),
    foreignKeys: pairs(await schema.foreignKeys()),
  };
  return JSON.stringify(names);
}

/**
 * Takes a MySQL schema back to the names it had before a migration that did not finish: MySQL commits
 * each DDL statement by itself, so a failed migration leaves the tables, columns, indexes and foreign
 * keys it had made so far, and running it again would stop at the first of them ("already exists").
 * Whatever the migration added is dropped: its new tables, and on older tables its new foreign keys,
 * indexes and columns. (What it dropped or changed cannot be brought back: a migration that drops or
 * alters existing columns does that last, once nothing else can fail.) Returns what was dropped.
 */
export async function undoSchemaAdditions(dataSource: DataSource, before: string): Promise<string[]> {
  const old: SchemaNames = JSON.parse(before);
  const now: SchemaNames = JSON.parse(await readSchemaNames(dataSource));
  const added = (key: keyof SchemaNames) => now[key].filter((name) => !old[key].includes(name));
  const newTables = added('tables');
  const onOldTable = (key: keyof SchemaNames) =>
    added(key)
      .map((pair) => pair.split(SEPARATOR) as [string, string])
      .filter(([table]) => !newTables.includes(table));
  const q = (name: string) => dataSource.driver.escape(name);

  const statements = [
    ...newTables.map((table) => `DROP TABLE IF EXISTS ${q(table)}`),
    ...onOldTable('foreignKeys').map(([table, name]) => `ALTER TABLE ${q(table)} DROP FOREIGN KEY ${q(name)}`),
    ...onOldTable('indexes').map(
      ([table, name]) => `ALTER TABLE ${q(table)} ${name === 'PRIMARY' ? 'DROP PRIMARY KEY' : `DROP INDEX ${q(name)}`}`,
    ),
    ...onOldTable('columns').map(([table, name]) => `ALTER TABLE ${q(table)} DROP COLUMN ${q(name)}`),
  ];
  if (statements.length === 0) return [];
  // One connection, so that foreign-key checks are off for the drops (new tables may refer to each other).
  await new SchemaRepository(dataSource).withoutForeignKeyChecks(statements);
  return statements;
}
