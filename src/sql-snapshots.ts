import { join } from 'node:path';
import { DataSource, getMetadataArgsStorage, type DataSourceOptions } from 'typeorm';
import './app.module.js';
import { Database } from './common/database.js';
import { recordDefinitions } from './common/record-definition.js';
import { recordSql } from './common/record-sql.js';
import { SchemaNamingStrategy } from './database/naming-strategy.js';

/** Where the snapshots live, from the repository's root (docs/architecture.md, "SQL snapshots"). */
export const SQL_SNAPSHOT_DIR = join('docs', 'sql');

const DIALECTS = { sqlite: 'better-sqlite3', mysql: 'mysql' } as const satisfies Record<string, DataSourceOptions['type']>;

/**
 * The SQL every record type runs, per dialect, as files (`docs/sql/<dialect>/<Type>.sql` → text). The
 * data sources only build their entities' metadata: nothing connects, so no database server is needed.
 */
export async function generateSqlSnapshots(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const dialect of Object.keys(DIALECTS) as Array<keyof typeof DIALECTS>) {
    const db = await offlineDatabase(dialect);
    for (const definition of recordDefinitions()) files.set(join(SQL_SNAPSHOT_DIR, dialect, `${definition.name}.sql`), recordSql(definition, db));
  }
  return files;
}

/**
 * A `Database` of `dialect` that knows every entity's metadata and has no connection: enough to build
 * the SQL the record machinery runs (here, and in the bench's bare server, which runs the same SQL).
 */
export async function offlineDatabase(dialect: keyof typeof DIALECTS): Promise<Database> {
  const entities = getMetadataArgsStorage().tables.map((table) => table.target as () => unknown);
  const dataSource = new DataSource({ type: DIALECTS[dialect], database: ':memory:', entities, namingStrategy: new SchemaNamingStrategy() });
  await (dataSource as unknown as { buildMetadatas(): Promise<void> }).buildMetadatas();
  return new Database(dataSource);
}
