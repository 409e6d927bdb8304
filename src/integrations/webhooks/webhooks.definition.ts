import { defineRecord } from '../../records/record-definition.js';
import { WebHookDto, WebHookUpdateDto } from './dto/webhook.dto.js';
import { WebHook } from './webhook.entity.js';

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
