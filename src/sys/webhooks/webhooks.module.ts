import { Module } from '@nestjs/common';
import { defineRecord } from '../../common/record-definition.js';
import { recordModule } from '../../common/record.module.js';
import { CalendarEventsModule } from '../../content/calendar-events/calendar-events.module.js';
import { WebHookDto, WebHookUpdateDto } from './dto/webhook.dto.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { WebhookDeliveryWorker } from './webhook-delivery.worker.js';
import { WebhookOutbox } from './webhook-outbox.js';
import { WebHook } from './webhook.entity.js';
import { WebHooksController } from './webhooks.controller.js';
import { WebhooksRepository } from './webhooks.repository.js';
import { WebHooksService } from './webhooks.service.js';

export const webHooks = defineRecord({
  name: 'WebHook',
  path: 'sys/webhooks',
  entity: WebHook,
  dto: WebHookDto,
  updateDto: WebHookUpdateDto,
  business: { column: 'BusinessId' },
  hidden: ['Secret'],
  toStringText: (h) => String(h.Name),
});

@Module(recordModule(webHooks, {
  service: WebHooksService,
  imports: [CalendarEventsModule],
  controllers: [WebHooksController],
  providers: [WebhooksRepository, WebhookDeliveriesRepository, WebhookOutbox, WebhookDeliveryWorker],
}))
export class WebHooksModule {}
