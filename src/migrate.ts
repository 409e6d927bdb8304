// The migration job (`npm run migrate`, or `node dist/src/migrate.js` in the image): applies the pending
// migrations under the same lock as start-up and exits (0: the schema is current). With
// MIGRATIONS_RUN=false the instances leave this to it (docs/operations.md, "Migrations").
import 'reflect-metadata';
import { setTimeout as sleep } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { isDatabaseUnavailable } from './persistence/database-errors.js';
import { createLogger, PinoNestLogger } from './platform/logging.js';
import { environmentOrExit, type AppConfig } from './config/configuration.js';
import { buildDataSourceOptions } from './database/data-source-options.js';
import { runMigrations } from './database/migration-runner.js';
import { ServiceDataSource } from './database/service-data-source.js';
import { exitUnlessSqliteDriverLoads } from './database/sqlite-driver.js';

/** A database that is not up yet (a job started with it) is waited for this many times, three seconds apart. */
const CONNECT_ATTEMPTS = 40;

export async function migrate(config: AppConfig, log = createLogger(config)): Promise<string[]> {
  Logger.overrideLogger(new PinoNestLogger(log));
  let dataSource: DataSource | undefined;
  for (let attempt = 1; !dataSource; attempt++) {
    try {
      dataSource = await new ServiceDataSource(buildDataSourceOptions(config)).initialize();
    } catch (error) {
      if (!isDatabaseUnavailable(error) || attempt >= CONNECT_ATTEMPTS) throw error;
      log.warn({ attempt, err: error }, 'database not reachable yet; retrying in 3 s');
      await sleep(3000);
    }
  }
  try {
    return await runMigrations(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const config = environmentOrExit();
  exitUnlessSqliteDriverLoads(config);
  const log = createLogger(config);
  try {
    await migrate(config, log);
  } catch (error) {
    log.error({ err: error }, 'migrations failed');
    process.exitCode = 1;
  }
}
