import { Global, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/configuration.js';
import { Database, isMySqlFamily } from '../common/database.js';
import { buildDataSourceOptions } from './data-source-options.js';

const MIGRATION_LOCK = 'coworking_migrations';

/**
 * Brings the schema up to date at start-up. On MySQL several instances may start at once, so the
 * migrations run under a named lock: the first runs them, the others wait and then find nothing to do.
 */
export async function runMigrations(dataSource: DataSource): Promise<void> {
  if (!isMySqlFamily(dataSource)) {
    await dataSource.runMigrations({ transaction: 'each' });
    return;
  }
  const runner = dataSource.createQueryRunner();
  try {
    const [lock] = await runner.query('SELECT GET_LOCK(?, 120) AS acquired', [MIGRATION_LOCK]);
    if (Number(lock.acquired) !== 1) throw new Error('Timed out waiting for another instance to finish the migrations');
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await runner.query('SELECT RELEASE_LOCK(?)', [MIGRATION_LOCK]).catch(() => undefined);
    await runner.release();
  }
}

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [ConfigService],
      useFactory: (config: ConfigService<AppConfig, true>) => ({
        ...buildDataSourceOptions({
          database: config.get('database', { infer: true }),
          DATABASE_POOL_SIZE: config.get('DATABASE_POOL_SIZE', { infer: true }),
          REQUEST_TIMEOUT_MS: config.get('REQUEST_TIMEOUT_MS', { infer: true }),
        }),
        // A database that is down at start-up is retried every three seconds until it answers (the
        // process does not listen meanwhile, so health checks and the load balancer keep it out).
        retryAttempts: Number.MAX_SAFE_INTEGER,
        retryDelay: 3000,
      }),
      dataSourceFactory: async (options) => {
        const dataSource = await new DataSource(options!).initialize();
        await runMigrations(dataSource);
        return dataSource;
      },
    }),
  ],
  providers: [Database],
  exports: [Database],
})
export class DatabaseModule {}
