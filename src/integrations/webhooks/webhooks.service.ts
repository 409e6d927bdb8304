import { Inject, Injectable } from '@nestjs/common';
import { successConfirmation, type ActionConfirmation } from '../../records/envelopes.js';
import { RecordNotFoundException } from '../../records/errors.js';
import type { Principal } from '../../platform/principal.js';
import { InjectRecords } from '../../records/record.module.js';
import type { RecordService } from '../../records/record.service.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { webHooks } from './webhooks.definition.js';
import { WebhooksRepository } from './webhooks.repository.js';

/** A hook's routes besides the record operations: its secret (sent by nothing else), deliveries and a test. */
@Injectable()
export class WebHooksService {
  @InjectRecords(webHooks) private readonly records: RecordService;
  @Inject(WebhookDeliveriesRepository) private readonly deliveries: WebhookDeliveriesRepository;
  @Inject(WebhooksRepository) private readonly hooks: WebhooksRepository;

  /** The hook's signing secret (404 or 401 as for reading the hook). */
  async secret(id: number, actor?: Principal): Promise<{ Secret: string }> {
    await this.records.get(id, actor);
    const secret = await this.hooks.secret(id);
    if (secret === null) throw new RecordNotFoundException();
    return { Secret: secret };
  }

  async deliveryLog(id: number, query: Record<string, unknown>, actor?: Principal) {
    await this.records.get(id, actor);
    return this.deliveries.list(id, query);
  }

  async redeliver(id: number, deliveryId: number, actor?: Principal): Promise<ActionConfirmation> {
    await this.records.get(id, actor);
    if (!(await this.deliveries.redeliver(id, deliveryId))) throw new RecordNotFoundException();
    return successConfirmation('The delivery will be attempted again now.', { Id: deliveryId }, actor?.email ?? null);
  }

  /** A delivery of the hook's own record to its URL, logged like any other. */
  async test(id: number, actor?: Principal): Promise<ActionConfirmation> {
    const hook = await this.records.get(id, actor);
    await this.deliveries.insert([
      { webHookId: id, action: Number(hook.Action), entity: this.records.definition.name, recordId: id, record: hook },
    ]);
    return successConfirmation('A test delivery will be attempted now.', { Id: id }, actor?.email ?? null);
  }
}
