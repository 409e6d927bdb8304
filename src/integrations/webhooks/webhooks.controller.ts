import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Actor, RequirePermission } from '../../platform/access.js';
import { ApiAnswer, documentSchemas, listEnvelopeSchema, objectSchema, ref } from '../../http/openapi.js';
import type { Principal } from '../../platform/principal.js';
import { RecordIdPipe } from '../../http/record-id.pipe.js';
import { WebHooksService } from './webhooks.service.js';

/** A hook's secret, its delivery log, redelivery and test (beside the record routes the machinery makes). */
documentSchemas({
  WebHookSecret: objectSchema({ Secret: { type: 'string', example: 'whsec_…' } }),
  WebHookDelivery: objectSchema(
    {
      Id: { type: 'integer' },
      WebHookId: { type: 'integer' },
      EventId: { type: 'string', description: 'The webhook-id header of its attempts.' },
      Action: { type: 'integer', description: 'eWebhookAction (GET /api/utils/enums?name=eWebhookAction).' },
      RecordId: { type: 'integer' },
      Status: { type: 'string', enum: ['Pending', 'Succeeded', 'Failed'] },
      Attempts: { type: 'integer' },
      CreatedOn: { type: 'string', format: 'date-time' },
      LastAttemptOn: { type: 'string', format: 'date-time', nullable: true },
      NextAttemptOn: { type: 'string', format: 'date-time', nullable: true },
      LastStatusCode: { type: 'integer', nullable: true },
      LastError: { type: 'string', nullable: true },
    },
    'One delivery of a change to a hook (docs/api.md §11.7).',
  ),
  WebHookDeliveryList: listEnvelopeSchema(ref('WebHookDelivery'), "A page of a hook's deliveries, newest first."),
});

@ApiTags('WebHook')
@Controller('api/sys/webhooks')
export class WebHooksController {
  constructor(private readonly hooks: WebHooksService) {}

  @Get(':id/secret')
  @RequirePermission('WebHook', 'Edit')
  @ApiOperation({ summary: "The hook's signing secret" })
  @ApiAnswer(200, 'The secret.', ref('WebHookSecret'))
  @ApiAnswer(404, 'No such hook.', ref('NotFound'))
  secret(@Param('id', RecordIdPipe) id: number, @Actor() actor?: Principal) {
    return this.hooks.secret(id, actor);
  }

  @Get(':id/deliveries')
  @RequirePermission('WebHook', 'Read')
  @ApiOperation({ summary: "The hook's deliveries, newest first" })
  @ApiQuery({ name: 'page', required: false })
  @ApiQuery({ name: 'size', required: false })
  @ApiAnswer(200, 'The deliveries in the list envelope.', ref('WebHookDeliveryList'))
  @ApiAnswer(404, 'No such hook.', ref('NotFound'))
  deliveries(@Param('id', RecordIdPipe) id: number, @Query() query: Record<string, unknown>, @Actor() actor?: Principal) {
    return this.hooks.deliveryLog(id, query, actor);
  }

  @Post(':id/deliveries/:deliveryId/redeliver')
  @HttpCode(200)
  @RequirePermission('WebHook', 'Edit')
  @ApiOperation({ summary: 'Attempt a delivery again now (same webhook-id and body)' })
  @ApiAnswer(200, 'Value: {Id} of the delivery.', ref('ActionConfirmation'))
  @ApiAnswer(404, 'No such hook or delivery.', ref('NotFound'))
  redeliver(@Param('id', RecordIdPipe) id: number, @Param('deliveryId', RecordIdPipe) deliveryId: number, @Actor() actor?: Principal) {
    return this.hooks.redeliver(id, deliveryId, actor);
  }

  @Post(':id/test')
  @HttpCode(200)
  @RequirePermission('WebHook', 'Edit')
  @ApiOperation({ summary: "Deliver the hook's own record to its URL" })
  @ApiAnswer(200, 'Value: {Id} of the hook.', ref('ActionConfirmation'))
  @ApiAnswer(404, 'No such hook.', ref('NotFound'))
  test(@Param('id', RecordIdPipe) id: number, @Actor() actor?: Principal) {
    return this.hooks.test(id, actor);
  }
}
