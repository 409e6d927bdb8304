import { Global, Module } from '@nestjs/common';
import { StandaloneEvents } from '../../records/record-events.js';
import { ActiveHookIndex } from './active-hook-index.js';
import { RecordModule } from '../../records/record.module.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { WebhookDeliveryWorker } from './webhook-delivery.worker.js';
import { WebhookOutbox } from './webhook-outbox.js';
import { WebHooksController } from './webhooks.controller.js';
import { WebHooksService } from './webhooks.service.js';
import { webHooks } from './webhooks.definition.js';
import { WebhooksRepository } from './webhooks.repository.js';
import { WebHooksRules } from './webhooks.rules.js';

@Module(
  RecordModule.forType({
    definition: webHooks,
    rules: WebHooksRules,
    controllers: [WebHooksController],
    providers: [
      ActiveHookIndex,
      WebHooksService,
      WebhooksRepository,
      WebhookDeliveriesRepository,
      WebhookOutbox,
      WebhookDeliveryWorker,
      { provide: StandaloneEvents, useExisting: WebhookOutbox },
    ],
    exports: [WebhookOutbox, StandaloneEvents],
  }),
)
// Global: record types of lower layers fire standalone events through StandaloneEvents (records/record-events.ts).
@Global()
export class WebHooksModule {}
