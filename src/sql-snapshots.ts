import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DataSource, getMetadataArgsStorage, type DataSourceOptions } from 'typeorm';
import './app.module.js';
import { Database } from './persistence/database.js';
import type { RecordDefinition } from './records/record-definition.js';
import { recordSql } from './records/record-sql.js';
import { SchemaNamingStrategy } from './database/naming-strategy.js';
import { guaranteeSql } from './guarantee-sql.js';
import { repositorySql } from './repository-sql.js';

/** Where the snapshots live, from the repository's root (docs/architecture.md, "SQL snapshots"). */
export const SQL_SNAPSHOT_DIR = join('docs', 'sql');

const DIALECTS = { sqlite: 'better-sqlite3', mysql: 'mysql' } as const satisfies Record<string, DataSourceOptions['type']>;

/**
 * The SQL every record type runs, the statements that carry the exactly-once guarantees
 * (`guarantees.sql`) and those of the repositories domain code calls by name (`repositories.sql`), per dialect, as files (`docs/sql/<dialect>/<Type>.sql` → text). The
 * data sources only build their entities' metadata: nothing connects, so no database server is needed.
 */
export async function generateSqlSnapshots(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const dialect of Object.keys(DIALECTS) as Array<keyof typeof DIALECTS>) {
    const db = await offlineDatabase(dialect);
    for (const definition of await definitionFiles())
      files.set(join(SQL_SNAPSHOT_DIR, dialect, `${definition.name}.sql`), recordSql(definition, db));
    files.set(join(SQL_SNAPSHOT_DIR, dialect, 'guarantees.sql'), await guaranteeSql(db));
    files.set(join(SQL_SNAPSHOT_DIR, dialect, 'repositories.sql'), await repositorySql(db));
  }
  return files;
}

/**
 * Every record type's definition, read from the `<type>.definition.ts` files (compiled) below this
 * folder: the snapshots start no application, so they do not ask the RecordTypes registry.
 */
export async function definitionFiles(): Promise<RecordDefinition<any>[]> {
  const found: RecordDefinition<any>[] = [];
  for (const file of readdirSync(import.meta.dirname, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.definition.js'))
    .sort()) {
    const exported: Record<string, unknown> = await import(pathToFileURL(join(import.meta.dirname, file)).href);
    for (const value of Object.values(exported)) if (isDefinition(value)) found.push(value);
  }
  return found;
}

function isDefinition(value: unknown): value is RecordDefinition<any> {
  const candidate = value as Partial<RecordDefinition<any>> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.name === 'string' &&
    typeof candidate.path === 'string' &&
    typeof candidate.entity === 'function' &&
    typeof candidate.toStringText === 'function'
  );
}

/**
 * A `Database` of `dialect` that knows every entity's metadata and has no connection: enough to build
 * the SQL the record machinery runs (here, and in the bench's bare server, which runs the same SQL).
 */
export async function offlineDatabase(dialect: keyof typeof DIALECTS): Promise<Database> {
  const entities = getMetadataArgsStorage().tables.map((table) => table.target as () => unknown);
  const dataSource = new DataSource({
    type: DIALECTS[dialect],
    database: ':memory:',
    entities,
    namingStrategy: new SchemaNamingStrategy(),
  });
  await (dataSource as unknown as { buildMetadatas(): Promise<void> }).buildMetadatas();
  return new Database(dataSource);
}
