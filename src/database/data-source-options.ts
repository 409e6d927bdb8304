import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/configuration.js';
import { SchemaNamingStrategy } from './naming-strategy.js';

// Compiled layout: dist/src/database/this-file.js, so the source root is one folder up.
const sourceRoot = join(import.meta.dirname, '..');

/**
 * The one place TypeORM options are built, for the application and for the TypeORM CLI (ormconfig.ts).
 * Entities and migrations are found by file name, so a record module adds its own without touching this.
 */
export function buildDataSourceOptions(
  config: Pick<AppConfig, 'database' | 'DATABASE_POOL_SIZE' | 'REQUEST_TIMEOUT_MS'>,
): DataSourceOptions {
  const common = {
    entities: [join(sourceRoot, '**', '*.entity.js')],
    migrations: [join(sourceRoot, '**', 'migrations', '*.js')],
    migrationsRun: false,
    synchronize: false,
    logging: false as const,
    // Index, unique and foreign-key names as the migrations write them, so entities and schema agree.
    namingStrategy: new SchemaNamingStrategy(),
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
    type: target.dialect,
    url: target.url,
    charset: 'utf8mb4_unicode_ci',
    timezone: 'Z',
    // Dates come back as the same 'YYYY-MM-DD HH:MM:SS' text SQLite gives, read as UTC by one formatter.
    dateStrings: ['DATETIME'],
    supportBigNumbers: true,
    // A stopped or unreachable database fails a request well within REQUEST_TIMEOUT_MS (the filter
    // answers 503); the pool opens new connections on demand, so the service recovers by itself.
    connectTimeout: Math.min(5000, Math.max(100, Math.floor(config.REQUEST_TIMEOUT_MS / 2))),
    poolSize: config.DATABASE_POOL_SIZE,
    extra: {
      connectionLimit: config.DATABASE_POOL_SIZE,
      // Requests wait for a free connection only while the queue is short; beyond it they fail at once.
      queueLimit: 200,
      enableKeepAlive: true,
      keepAliveInitialDelay: 10_000,
      // Idle connections are dropped after a minute, so a restarted database leaves no stale ones behind.
      maxIdle: config.DATABASE_POOL_SIZE,
      idleTimeout: 60_000,
      // Statements outside transactions are prepared, kept per connection up to this many (the least used
      // are closed): a pool of 10 holds at most 1,280, well under the server's max_prepared_stmt_count
      // (16,382 by default) with several instances.
      maxPreparedStatements: 128,
      // No stack trace captured at every statement's call site (mysql2's default): it cost about 6% of a
      // create's CPU, and errors are logged by the record machinery, not by their driver stack.
      trace: false,
    },
  };
}
