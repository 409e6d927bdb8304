import { Module, type DynamicModule } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { AuthGuard } from './auth/auth.guard.js';
import { AuthModule } from './auth/auth.module.js';
import { isTokenRoute, RateLimitGuard } from './auth/rate-limit.guard.js';
import { RATE_LIMIT_STORAGE, RateLimitStorageModule, type RedisThrottlerStorage } from './auth/redis-throttler.storage.js';
import { UsersModule } from './sys/users/users.module.js';
import { HttpExceptionFilter } from './common/http-exception.filter.js';
import { createValidationPipe } from './common/validation/validation.js';
import type { AppConfig } from './config/configuration.js';
import { DatabaseModule } from './database/database.module.js';
import { HealthModule } from './health/health.module.js';
import { TariffsModule } from './billing/tariffs/tariffs.module.js';
import { CoworkersModule } from './spaces/coworkers/coworkers.module.js';
import { BusinessesModule } from './sys/businesses/businesses.module.js';
import { CountriesModule } from './sys/countries/countries.module.js';
import { CurrenciesModule } from './sys/currencies/currencies.module.js';

/**
 * The application: feature modules plus the global pipe, filter and guard as APP_* providers, so a
 * test that imports it gets exactly what production gets. Built from an already validated config.
 */
@Module({})
export class AppModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, ignoreEnvVars: true, skipProcessEnv: true, load: [() => config] }),
        DatabaseModule,
        ThrottlerModule.forRootAsync({
          imports: [RateLimitStorageModule],
          inject: [ConfigService, RATE_LIMIT_STORAGE],
          useFactory: (settings: ConfigService<AppConfig, true>, storage: RedisThrottlerStorage | null) => ({
            // Shared by every instance when REDIS_URL is set; otherwise counted in this process.
            storage: storage ?? undefined,
            throttlers: [{
              name: 'default',
              ttl: 60_000,
              limit: (context) => settings.get(isTokenRoute(context) ? 'RATE_LIMIT_TOKEN_PER_MINUTE' : 'RATE_LIMIT_PER_MINUTE', { infer: true }),
            }],
            // One counter per client for /api/token and one for everything else (not one per route).
            generateKey: (context, tracker) => `${isTokenRoute(context) ? 'token' : 'api'}:${tracker}`,
          }),
        }),
        AuthModule,
        HealthModule,
        UsersModule,
        CurrenciesModule,
        CountriesModule,
        BusinessesModule,
        TariffsModule,
        CoworkersModule,
      ],
      providers: [
        { provide: APP_PIPE, useFactory: createValidationPipe },
        { provide: APP_FILTER, useClass: HttpExceptionFilter },
        // Guards run in this order: the rate limit first, so refused logins are limited too.
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_GUARD, useClass: AuthGuard },
      ],
    };
  }
}
