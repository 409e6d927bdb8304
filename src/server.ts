// The service itself, started by main.ts (the runtime settings are given where the process starts: src/runtime-settings.ts).
import 'reflect-metadata';
import { getHeapStatistics } from 'node:v8';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module.js';
import { createFastifyAdapter, setupApp } from './app.setup.js';
import { lowerHelperThreads } from './platform/idle-priority.js';
import { asyncStdout, createLogger, PinoNestLogger } from './platform/logging.js';
import { environmentOrExit } from './config/configuration.js';
import { exitUnlessSqliteDriverLoads } from './database/sqlite-driver.js';
import { settingsWarning } from './runtime-settings.js';

export async function bootstrap(): Promise<void> {
  // The request thread first, on a core it shares with V8's and libuv's helpers (docs/architecture.md §9).
  lowerHelperThreads();
  const config = environmentOrExit();
  exitUnlessSqliteDriverLoads(config);
  const logger = createLogger(config, asyncStdout());
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.register(config), createFastifyAdapter(config, logger), {
    logger: new PinoNestLogger(logger),
  });
  // SIGTERM/SIGINT: stop accepting connections, let requests in flight finish, close the database pool
  // and the Redis connection, then exit 0. A shutdown that hangs is cut short after 30 seconds.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.info({ signal }, 'shutting down');
      setTimeout(() => {
        logger.error('shutdown took longer than 30 s; exiting');
        process.exit(1);
      }, 30_000).unref();
    });
  }
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  await setupApp(app);
  await app.listen({ port: config.PORT, host: config.HOST });
  // The effective heap cap and arena count, so an operator can see the runtime settings took effect.
  const heapLimitMb = Math.round(getHeapStatistics().heap_size_limit / 2 ** 20);
  logger.info(
    {
      host: config.HOST,
      port: config.PORT,
      database: config.database.type,
      heapLimitMb,
      mallocArenaMax: process.env.MALLOC_ARENA_MAX ?? null,
    },
    'listening',
  );
  // Started without the runtime settings (plain `node dist/src/main.js`): said once, not relaunched.
  const warning = settingsWarning(process.execArgv, process.env);
  if (warning) logger.warn(warning);
}
