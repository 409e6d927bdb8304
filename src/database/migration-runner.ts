import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { isMySqlFamily } from '../persistence/database.js';
import { isDatabaseUnavailable } from '../persistence/database-errors.js';
import { MYSQL_TABLE_OPTIONS } from './migration-helpers.js';
import { MigrationLock, type MigrationInProgress } from './migration-lock.js';
import { readSchemaNames, undoSchemaAdditions } from './schema-repair.js';
import { SchemaRepository } from './schema.repository.js';

// Running the migrations at start-up, under the lock of migration-lock.ts (docs/architecture.md, "The
// database"). DatabaseModule calls runMigrations when it opens the data source.

/** A migration failed: start-up stops (it is not retried), with the migration and the error named. */
export class MigrationFailedError extends Error {
  override name = 'MigrationFailedError';

  constructor(
    readonly migration: string,
    cause: unknown,
    undone: string[],
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      `Migration ${migration} failed: ${reason}` + (undone.length ? ` (its partial changes were undone: ${undone.length} statements)` : ''),
      { cause },
    );
  }
}

/**
 * Brings the schema up to date at start-up. Several instances may start at once, against different
 * nodes of a cluster, so the migrations run under a lock held in the database (migration-lock.ts): the
 * first runs them, the others wait and then find nothing to do. Each migration runs in a transaction;
 * on MySQL, where DDL commits by itself, the schema before each migration is recorded, and a migration
 * that fails (here, or in an instance that died) has its partial changes undone, so the next start
 * runs it again from a clean state.
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const logger = new Logger('Migrations');
  const mySql = isMySqlFamily(dataSource);
  const lock = new MigrationLock(dataSource);
  const unfinished = await lock.acquire();
  try {
    if (mySql) await ensureMigrationsTable(dataSource);
    if (unfinished) await finishUnfinished(dataSource, lock, unfinished, logger);

    let running: MigrationInProgress | undefined;
    const restore = beforeEachMigration(dataSource, async (name) => {
      running = { migration: name, schemaBefore: null };
      if (lock.wasLost) throw new Error('another instance took the migration lock over');
      if (mySql) {
        running.schemaBefore = await readSchemaNames(dataSource);
        await lock.recordProgress(running);
      }
    });
    let applied: string[];
    try {
      applied = (await dataSource.runMigrations({ transaction: 'each' })).map((migration) => migration.name);
    } catch (error) {
      // A database that went away is retried at start-up; the next attempt finds the record and repairs.
      if (isDatabaseUnavailable(error) || running === undefined) throw error;
      const undone = await undoRecorded(dataSource, lock, logger, running);
      throw new MigrationFailedError(running.migration, error, undone);
    } finally {
      restore();
    }
    if (mySql) await lock.recordProgress(null);
    // One line an operator can look for at every start (docs/operations.md, "Migrations").
    if (applied.length) logger.log(`Applied ${applied.length} migrations: ${applied.join(', ')}`);
    else logger.log(`The schema is current: no migration to apply (${dataSource.migrations.length} applied earlier)`);
    return applied;
  } finally {
    await lock.release();
  }
}

/** The migration's name as TypeORM records it in its table. */
const migrationName = (migration: { name?: string; constructor: { name: string } }) => migration.name ?? migration.constructor.name;

/**
 * The migrations this build knows that the database has not applied, oldest first (none: the schema
 * is current). Reads only: the migrations table may not exist yet (then all are pending).
 */
export async function pendingMigrations(dataSource: DataSource): Promise<string[]> {
  let applied: Set<string>;
  try {
    applied = new Set(await new SchemaRepository(dataSource).appliedMigrations());
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    applied = new Set();
  }
  return dataSource.migrations.map(migrationName).filter((name) => !applied.has(name));
}

/**
 * MIGRATIONS_RUN=false: start-up waits, without listening, until the migrations have been applied by
 * `npm run migrate` (a job), checking every three seconds and saying what it waits for every thirty.
 */
export async function waitForCurrentSchema(dataSource: DataSource, pauseMs = 3000): Promise<void> {
  const logger = new Logger('Migrations');
  for (let round = 0; ; round++) {
    const pending = await pendingMigrations(dataSource);
    if (!pending.length) return;
    if (round % 10 === 0)
      logger.warn(
        `Waiting for ${pending.length} migrations to be applied (MIGRATIONS_RUN=false: run "npm run migrate"); the first is ${pending[0]}`,
      );
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}

/**
 * TypeORM's table of applied migrations, created as it would create it but with the service's table
 * options (utf8mb4 whatever the database's default is).
 */
function ensureMigrationsTable(dataSource: DataSource): Promise<void> {
  return new SchemaRepository(dataSource).ensureMigrationsTable(MYSQL_TABLE_OPTIONS);
}

/** Calls `hook` with a migration's name before TypeORM runs it; returns the undo. */
function beforeEachMigration(dataSource: DataSource, hook: (name: string) => Promise<void>): () => void {
  const originals = dataSource.migrations.map((migration) => {
    const up = migration.up.bind(migration);
    migration.up = async (runner) => {
      await hook(migration.name ?? migration.constructor.name);
      return up(runner);
    };
    return () => (migration.up = up);
  });
  return () => originals.forEach((restore) => restore());
}

/** A migration recorded as running when its instance died: repaired unless it had in fact been applied. */
async function finishUnfinished(
  dataSource: DataSource,
  lock: MigrationLock,
  unfinished: MigrationInProgress,
  logger: Logger,
): Promise<void> {
  if (await new SchemaRepository(dataSource).isApplied(unfinished.migration)) {
    await lock.recordProgress(null);
    return;
  }
  logger.warn(`Migration ${unfinished.migration} did not finish in an earlier start; undoing its partial changes`);
  await undoRecorded(dataSource, lock, logger, unfinished);
}

/** Undoes what a migration added to a MySQL schema (nothing to do on SQLite, whose DDL rolls back). */
async function undoRecorded(dataSource: DataSource, lock: MigrationLock, logger: Logger, progress: MigrationInProgress): Promise<string[]> {
  if (!progress.schemaBefore) return [];
  const undone = await undoSchemaAdditions(dataSource, progress.schemaBefore);
  for (const statement of undone) logger.warn(`Undid part of migration ${progress.migration}: ${statement}`);
  await lock.recordProgress(null);
  return undone;
}
