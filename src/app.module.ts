import { Module, type DynamicModule } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { AuthGuard } from './auth/auth.guard.js';
import { HttpExceptionFilter } from './common/http-exception.filter.js';
import { createValidationPipe } from './common/validation/validation.js';
import type { AppConfig } from './config/configuration.js';
import { DatabaseModule } from './database/database.module.js';
import { HealthModule } from './health/health.module.js';
import { CoworkerInvoicePaymentTokensModule } from './billing/coworker-invoice-payment-tokens/coworker-invoice-payment-tokens.module.js';
import { CoworkerInvoicesModule } from './billing/coworker-invoices/coworker-invoices.module.js';
import { InvoicesModule } from './billing/invoices/invoices.module.js';
import { ProductBookingCreditsModule } from './billing/product-booking-credits/product-booking-credits.module.js';
import { ProductsModule } from './billing/products/products.module.js';
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
        HealthModule,
        CurrenciesModule,
        CountriesModule,
        BusinessesModule,
        TariffsModule,
        CoworkersModule,
        ProductsModule,
        ProductBookingCreditsModule,
        InvoicesModule,
        CoworkerInvoicesModule,
        CoworkerInvoicePaymentTokensModule,
      ],
      providers: [
        { provide: APP_PIPE, useFactory: createValidationPipe },
        { provide: APP_FILTER, useClass: HttpExceptionFilter },
        { provide: APP_GUARD, useClass: AuthGuard },
      ],
    };
  }
}
