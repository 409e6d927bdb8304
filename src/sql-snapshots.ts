import { join } from 'node:path';
import { DataSource, getMetadataArgsStorage, type DataSourceOptions } from 'typeorm';
import './app.module.js';
import { Database } from './common/database.js';
import { recordDefinitions } from './common/record-definition.js';
import { recordSql } from './common/record-sql.js';
import { SchemaNamingStrategy } from './database/naming-strategy.js';

/** Where the snapshots live, from the repository's root (docs/architecture.md, "SQL snapshots"). */
export const SQL_SNAPSHOT_DIR = join('docs', 'sql');

const DIALECTS: Record<string, DataSourceOptions['type']> = { sqlite: 'better-sqlite3', mysql: 'mysql' };

/**
 * The SQL every record type runs, per dialect, as files (`docs/sql/<dialect>/<Type>.sql` → text). The
 * data sources only build their entities' metadata: nothing connects, so no database server is needed.
 */
export async function generateSqlSnapshots(): Promise<Map<string, string>> {
  const entities = getMetadataArgsStorage().tables.map((table) => table.target as () => unknown);
  const files = new Map<string, string>();
  for (const [dialect, type] of Object.entries(DIALECTS)) {
    const dataSource = new DataSource({ type, database: ':memory:', entities, namingStrategy: new SchemaNamingStrategy() } as DataSourceOptions);
    await (dataSource as unknown as { buildMetadatas(): Promise<void> }).buildMetadatas();
    const db = new Database(dataSource);
    for (const definition of recordDefinitions()) files.set(join(SQL_SNAPSHOT_DIR, dialect, `${definition.name}.sql`), recordSql(definition, db));
  }
  return files;
}
