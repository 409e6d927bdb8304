import { Module, type DynamicModule } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { IdempotencyRepository } from './http/idempotency/idempotency.repository.js';
import { Idempotency } from './http/idempotency/idempotency.js';
import { WriteInterceptor } from './http/write.interceptor.js';
import { ThrottlerModule } from '@nestjs/throttler';
import { AuthenticationGuard } from './auth/authentication.guard.js';
import { RolesGuard } from './auth/roles.guard.js';
import { AuthModule } from './auth/auth.module.js';
import { FixedWindowStorage } from './auth/fixed-window-storage.js';
import { isTokenRoute, RateLimitGuard } from './auth/rate-limit.guard.js';
import { RATE_LIMIT_STORAGE, RateLimitStorageModule, type RedisThrottlerStorage } from './auth/redis-throttler.storage.js';
import { UsersModule } from './customers/users/users.module.js';
import { HttpExceptionFilter } from './http/http-exception.filter.js';
import type { AppConfig } from './config/configuration.js';
import { DatabaseModule } from './database/database.module.js';
import { HealthModule } from './health/health.module.js';
import { ObservabilityModule } from './observability/observability.module.js';
import { ChangeLogModule } from './records/change-log/change-log.module.js';
import { RecordCommandsModule } from './records/commands/record-commands.js';
import { RecordTypesModule } from './records/record-types.js';
import { PublicEventsModule } from './public/events/public-events.module.js';
// Bookings first: their record types are defined (and walked by test/boundary-values) before product credits.
import { BookingsModule } from './spaces/bookings/bookings.module.js';
import { CheckinsModule } from './spaces/checkins/checkins.module.js';
import { CoworkerDeliveriesModule } from './spaces/coworker-deliveries/coworker-deliveries.module.js';
import { CoworkerTimePassesModule } from './billing/coworker-time-passes/coworker-time-passes.module.js';
import { TimePassBillingModule } from './billing/billing-runs/time-pass-billing.module.js';
import { TimePassesModule } from './billing/time-passes/time-passes.module.js';
import { BookingProductsModule } from './spaces/booking-products/booking-products.module.js';
import { ResourceTypesModule } from './spaces/resource-types/resource-types.module.js';
import { ResourcesModule } from './spaces/resources/resources.module.js';
import { CoworkerBookingCreditUseHistoriesModule } from './billing/coworker-booking-credit-use-histories/coworker-booking-credit-use-histories.module.js';
import { CoworkerContractsModule } from './billing/coworker-contracts/coworker-contracts.module.js';
import { CoworkerBookingCreditsModule } from './billing/coworker-booking-credits/coworker-booking-credits.module.js';
import { CoworkerProductsModule } from './billing/coworker-products/coworker-products.module.js';
import { CoworkerInvoicePaymentTokensModule } from './billing/coworker-invoice-payment-tokens/coworker-invoice-payment-tokens.module.js';
import { CoworkerInvoicesModule } from './billing/coworker-invoices/coworker-invoices.module.js';
import { CoworkerLedgerEntriesModule } from './billing/coworker-ledger-entries/coworker-ledger-entries.module.js';
import { SettlementModule } from './billing/settlement/settlement.module.js';
import { EInvoicesModule } from './billing/einvoices/einvoices.module.js';
import { DownloadsModule } from './downloads/downloads.module.js';
import { InvoicesModule } from './billing/invoices/invoices.module.js';
import { ProductBookingCreditsModule } from './billing/product-booking-credits/product-booking-credits.module.js';
import { ProductsModule } from './billing/products/products.module.js';
import { TariffsModule } from './billing/tariffs/tariffs.module.js';
import { CalendarEventsModule } from './content/calendar-events/calendar-events.module.js';
import { EventAttendeesModule } from './content/event-attendees/event-attendees.module.js';
import { EventWaitingAttendeesModule } from './content/event-waiting-attendees/event-waiting-attendees.module.js';
import { SurveyRunsModule } from './content/survey-runs/survey-runs.module.js';
import { SurveysModule } from './content/surveys/surveys.module.js';
import { CoworkersModule } from './customers/coworkers/coworkers.module.js';
import { TeamsModule } from './customers/teams/teams.module.js';
import { BusinessesModule } from './kernel/businesses/businesses.module.js';
import { CountriesModule } from './kernel/countries/countries.module.js';
import { CurrenciesModule } from './kernel/currencies/currencies.module.js';
import { WebHooksModule } from './integrations/webhooks/webhooks.module.js';
import { TaxRatesModule } from './kernel/tax-rates/tax-rates.module.js';
import { CoworkerInvoiceLinesModule } from './billing/coworker-invoice-lines/coworker-invoice-lines.module.js';
import { ContractProductsModule } from './billing/contract-products/contract-products.module.js';
import { BillingRunsModule } from './billing/billing-runs/billing-runs.module.js';
import { ChargesModule } from './billing/charges/charges.module.js';
import { UtilsModule } from './utils/enums.controller.js';

/**
 * The guards every request passes, in this order: the rate limit first, so refused logins are limited
 * too; then who the caller is (AuthenticationGuard), then what it may do (RolesGuard). Registered as
 * APP_GUARD for the Nest routes; the record router (http/record-router.ts) runs the same list.
 */
export const REQUEST_GUARDS = [RateLimitGuard, AuthenticationGuard, RolesGuard] as const;

/**
 * The application: feature modules plus the global filter, guards and write interceptor as APP_*
 * providers, so a test that imports it gets exactly what production gets. Built from an already
 * validated config. Record routes are served by the record router (app.setup.ts); hand-written
 * routes declare their own pipes (no route takes a DTO without one).
 */
@Module({})
export class AppModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, ignoreEnvVars: true, skipProcessEnv: true, load: [() => config] }),
        DatabaseModule,
        ObservabilityModule.register(config),
        ChangeLogModule,
        RecordTypesModule,
        RecordCommandsModule,
        ThrottlerModule.forRootAsync({
          imports: [RateLimitStorageModule],
          inject: [ConfigService, RATE_LIMIT_STORAGE],
          useFactory: (settings: ConfigService<AppConfig, true>, storage: RedisThrottlerStorage | null) => ({
            // Shared by every instance when REDIS_URL is set; otherwise counted in this process.
            storage: storage ?? new FixedWindowStorage(),
            throttlers: [
              {
                name: 'default',
                ttl: 60_000,
                limit: (context) =>
                  settings.get(isTokenRoute(context) ? 'RATE_LIMIT_TOKEN_PER_MINUTE' : 'RATE_LIMIT_PER_MINUTE', { infer: true }),
              },
            ],
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
        CoworkerContractsModule,
        TeamsModule,
        SurveysModule,
        SurveyRunsModule,
        CalendarEventsModule,
        EventAttendeesModule,
        EventWaitingAttendeesModule,
        PublicEventsModule,
        ProductsModule,
        ProductBookingCreditsModule,
        CoworkerProductsModule,
        CoworkerBookingCreditsModule,
        InvoicesModule,
        CoworkerInvoicesModule,
        CoworkerLedgerEntriesModule,
        SettlementModule,
        EInvoicesModule,
        DownloadsModule,
        CoworkerInvoicePaymentTokensModule,
        WebHooksModule,
        TaxRatesModule,
        CoworkerInvoiceLinesModule,
        ContractProductsModule,
        BillingRunsModule,
        ChargesModule,
        UtilsModule,
        // Bookings paid with booking credits (docs/bookings.md).
        ResourceTypesModule,
        ResourcesModule,
        BookingsModule,
        BookingProductsModule,
        CoworkerBookingCreditUseHistoriesModule,
        // Presence: passes and check-ins (docs/presence.md).
        TimePassesModule,
        CoworkerTimePassesModule,
        TimePassBillingModule,
        CheckinsModule,
        // Deliveries, some made by sales (docs/stock-and-deliveries.md).
        CoworkerDeliveriesModule,
      ],
      providers: [
        { provide: APP_FILTER, useClass: HttpExceptionFilter },
        RateLimitGuard,
        ...REQUEST_GUARDS.map((guard) => ({ provide: APP_GUARD, useExisting: guard })),
        // Write requests: the answer deadline, Idempotency-Key and ETags (docs/api.md §11.6).
        IdempotencyRepository,
        Idempotency,
        { provide: APP_INTERCEPTOR, useClass: WriteInterceptor },
      ],
    };
  }
}
