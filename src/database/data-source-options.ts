import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/configuration.js';

// Compiled layout: dist/src/database/this-file.js, so the source root is one folder up.
const sourceRoot = join(import.meta.dirname, '..');

/**
 * The one place TypeORM options are built, for the application and for the TypeORM CLI (ormconfig.ts).
 * Entities and migrations are found by file name, so a record module adds its own without touching this.
 */
export function buildDataSourceOptions(config: Pick<AppConfig, 'database' | 'DATABASE_POOL_SIZE' | 'REQUEST_TIMEOUT_MS'>): DataSourceOptions {
  const common = {
    entities: [join(sourceRoot, '**', '*.entity.js')],
    migrations: [join(sourceRoot, '**', 'migrations', '*.js')],
    migrationsRun: false,
    synchronize: false,
    logging: false as const,
  };
  const target = config.database;
  if (target.type === 'sqlite') {
    if (target.database !== ':memory:') mkdirSync(dirname(target.database), { recursive: true });
    return {
      ...common,
      type: 'better-sqlite3',
      database: target.database,
      enableWAL: target.database !== ':memory:',
      // Foreign keys are enforced on SQLite too, so both databases refuse the same orphans.
      prepareDatabase: (db: { pragma(sql: string): unknown }) => {
        db.pragma('foreign_keys = ON');
        db.pragma('busy_timeout = 5000');
      },
    };
  }
  return {
    ...common,
    type: 'mysql',
    url: target.url,
    charset: 'utf8mb4_unicode_ci',
    timezone: 'Z',
    // Dates come back as the same 'YYYY-MM-DD HH:MM:SS' text SQLite gives, read as UTC by one formatter.
    dateStrings: ['DATETIME'],
    supportBigNumbers: true,
    connectTimeout: 5000,
    poolSize: config.DATABASE_POOL_SIZE,
    extra: {
      connectionLimit: config.DATABASE_POOL_SIZE,
      // A stopped database must fail requests quickly rather than queue them forever.
      queueLimit: 200,
      enableKeepAlive: true,
    },
  };
}
