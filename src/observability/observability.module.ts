import { Global, Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from '../config/configuration.js';
import { MetricsController } from './metrics.controller.js';
import { Metrics } from './metrics.js';
import { MoneyMetrics } from './money-metrics.js';

/** Metrics for every module to count into; /metrics on PORT only when configured so (docs/operations.md). */
@Global()
@Module({})
export class ObservabilityModule {
  static register(config: Pick<AppConfig, 'METRICS_ENABLED' | 'METRICS_PORT'>): DynamicModule {
    return {
      module: ObservabilityModule,
      controllers: config.METRICS_ENABLED && config.METRICS_PORT === undefined ? [MetricsController] : [],
      providers: [Metrics, MoneyMetrics],
      exports: [Metrics],
    };
  }
}
