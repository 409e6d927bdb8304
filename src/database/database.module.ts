import { Global, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/configuration.js';
import { Database } from '../persistence/database.js';
import { buildDataSourceOptions } from './data-source-options.js';
import { ServiceDataSource } from './service-data-source.js';
import { SqliteCheckpoints } from './sqlite-checkpoints.js';
import { isNativeModuleLoadFailure } from './sqlite-driver.js';
import { MigrationLockTimeoutError } from './migration-lock.js';
import { MigrationFailedError, runMigrations, waitForCurrentSchema } from './migration-runner.js';

/** The data source's options, and whether start-up applies the migrations itself (MIGRATIONS_RUN). */
type StartOptions = DataSourceOptions & { migrationsAtStart?: boolean };

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
        // process does not listen meanwhile, so health checks and the load balancer keep it out). A
        // failed migration is not retried: start-up stops with its name and error; nor is a driver that
        // cannot load (server.ts checks better-sqlite3 first, with a clearer message).
        retryAttempts: Number.MAX_SAFE_INTEGER,
        retryDelay: 3000,
        toRetry: (error: unknown) =>
          !(error instanceof MigrationFailedError || error instanceof MigrationLockTimeoutError || isNativeModuleLoadFailure(error)),
        migrationsAtStart: config.get('MIGRATIONS_RUN', { infer: true }),
      }),
      dataSourceFactory: async (given) => {
        const { migrationsAtStart, ...options } = given as StartOptions;
        const dataSource = await new ServiceDataSource(options).initialize();
        try {
          // Without MIGRATIONS_RUN the service starts once a migration job has brought the schema up to date.
          if (migrationsAtStart === false) await waitForCurrentSchema(dataSource);
          else await runMigrations(dataSource);
        } catch (error) {
          // The next attempt (a database that went away) makes a data source of its own.
          await dataSource.destroy().catch(() => undefined);
          throw error;
        }
        return dataSource;
      },
    }),
  ],
  providers: [Database, SqliteCheckpoints],
  exports: [Database],
})
export class DatabaseModule {}
