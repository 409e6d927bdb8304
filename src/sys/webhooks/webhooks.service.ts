import { Inject, Injectable } from '@nestjs/common';
import { successConfirmation, type ActionConfirmation } from '../../common/envelopes.js';
import { RecordNotFoundException, RecordValidationException } from '../../common/errors.js';
import type { Principal } from '../../common/principal.js';
import { RecordService, type SaveContext, type SaveDecision } from '../../common/record.service.js';
import type { WebHookDto } from './dto/webhook.dto.js';
import { generateSecret } from './signatures.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import type { WebHook } from './webhook.entity.js';
import { WebhooksRepository } from './webhooks.repository.js';

const REQUIRED = ['BusinessId', 'Name', 'Action', 'URL'] as const;
const SECRET_MIN = 16;

/** Whether a URL is one a hook may call: absolute http or https, with no user name or password. */
export function isHookUrl(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password && Boolean(url.hostname);
}

/**
 * Hooks (docs/api.md §11.7): partial updates (absent fields keep their values), URL rules, secrets
 * generated when not given and never sent but by `secret()`, and re-activation clearing ErrorCount.
 */
@Injectable()
export class WebHooksService extends RecordService<WebHook> {
  @Inject(WebhookDeliveriesRepository) private readonly deliveries: WebhookDeliveriesRepository;
  @Inject(WebhooksRepository) private readonly hooks: WebhooksRepository;

  protected override async beforeSave({ values: given, dto, existing }: SaveContext): Promise<SaveDecision> {
    const body = dto as WebHookDto;
    const values = { ...given };
    // A partial update: a required field that is null keeps its value as an absent one does.
    if (existing) for (const field of REQUIRED) if (values[field] === null) delete values[field];
    if (values.URL !== undefined && !isHookUrl(String(values.URL))) {
      throw RecordValidationException.field('URL', 'URL must be an absolute http or https URL without a user name or password.', values.URL);
    }
    if (body.Secret !== undefined && body.Secret !== null) {
      if (body.Secret.length < SECRET_MIN) throw RecordValidationException.field('Secret', `Secret must be at least ${SECRET_MIN} characters long.`, null);
    } else if (existing) {
      delete values.Secret;
    } else {
      values.Secret = generateSecret();
    }
    if (values.Active === true) values.ErrorCount = 0;
    return { values };
  }

  /** A hook moved to another business sends nothing it had pending for the first (docs/api.md §7.4). */
  protected override async afterSave(id: number, { values, existing, manager }: SaveContext): Promise<void> {
    if (!existing || values.BusinessId === undefined || Number(values.BusinessId) === Number(existing.BusinessId)) return;
    await this.deliveries.dropForOtherBusinesses(id, Number(values.BusinessId), manager);
  }

  /** The hook's signing secret (404 or 401 as for reading the hook). */
  async secret(id: number, actor?: Principal): Promise<{ Secret: string }> {
    await this.get(id, actor);
    const secret = await this.hooks.secret(id);
    if (secret === null) throw new RecordNotFoundException();
    return { Secret: secret };
  }

  async deliveryLog(id: number, query: Record<string, unknown>, actor?: Principal) {
    await this.get(id, actor);
    return this.deliveries.list(id, query);
  }

  async redeliver(id: number, deliveryId: number, actor?: Principal): Promise<ActionConfirmation> {
    await this.get(id, actor);
    if (!(await this.deliveries.redeliver(id, deliveryId))) throw new RecordNotFoundException();
    return successConfirmation('The delivery will be attempted again now.', { Id: deliveryId }, actor?.email ?? null);
  }

  /** A delivery of the hook's own record to its URL, logged like any other. */
  async test(id: number, actor?: Principal): Promise<ActionConfirmation> {
    const hook = await this.get(id, actor);
    await this.deliveries.insert([{ webHookId: id, action: Number(hook.Action), entity: this.definition.name, recordId: id, record: hook }]);
    return successConfirmation('A test delivery will be attempted now.', { Id: id }, actor?.email ?? null);
  }
}
