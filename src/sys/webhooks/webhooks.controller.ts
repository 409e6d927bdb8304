import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Actor, RequirePermission } from '../../common/access.js';
import type { Principal } from '../../common/principal.js';
import { RecordIdPipe } from '../../common/record-id.pipe.js';
import { WebHooksService } from './webhooks.service.js';

/** A hook's secret, its delivery log, redelivery and test (beside the record routes the machinery makes). */
@ApiTags('WebHook')
@Controller('api/sys/webhooks')
export class WebHooksController {
  constructor(private readonly hooks: WebHooksService) {}

  @Get(':id/secret')
  @RequirePermission('WebHook', 'Edit')
  @ApiOperation({ summary: "The hook's signing secret" })
  secret(@Param('id', RecordIdPipe) id: number, @Actor() actor?: Principal) {
    return this.hooks.secret(id, actor);
  }

  @Get(':id/deliveries')
  @RequirePermission('WebHook', 'Read')
  @ApiOperation({ summary: "The hook's deliveries, newest first" })
  @ApiQuery({ name: 'page', required: false })
  @ApiQuery({ name: 'size', required: false })
  deliveries(@Param('id', RecordIdPipe) id: number, @Query() query: Record<string, unknown>, @Actor() actor?: Principal) {
    return this.hooks.deliveryLog(id, query, actor);
  }

  @Post(':id/deliveries/:deliveryId/redeliver')
  @HttpCode(200)
  @RequirePermission('WebHook', 'Edit')
  @ApiOperation({ summary: 'Attempt a delivery again now (same webhook-id and body)' })
  redeliver(@Param('id', RecordIdPipe) id: number, @Param('deliveryId', RecordIdPipe) deliveryId: number, @Actor() actor?: Principal) {
    return this.hooks.redeliver(id, deliveryId, actor);
  }

  @Post(':id/test')
  @HttpCode(200)
  @RequirePermission('WebHook', 'Edit')
  @ApiOperation({ summary: "Deliver the hook's own record to its URL" })
  test(@Param('id', RecordIdPipe) id: number, @Actor() actor?: Principal) {
    return this.hooks.test(id, actor);
  }
}
