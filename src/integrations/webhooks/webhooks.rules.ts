import { Inject, Injectable } from '@nestjs/common';
import type { ChangeAction } from '../../records/field-changes.js';
import { RecordValidationException } from '../../records/errors.js';
import type { RecordRules, SaveContext, SaveDecision } from '../../records/record-rules.js';
import type { WebHookDto, WebHookUpdateDto } from './dto/webhook.dto.js';
import { ActiveHookIndex } from './active-hook-index.js';
import { generateSecret } from './signatures.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';

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
 * generated when not given, and re-activation clearing ErrorCount.
 */
@Injectable()
export class WebHooksRules implements RecordRules<WebHookDto | WebHookUpdateDto> {
  @Inject(WebhookDeliveriesRepository) private readonly deliveries: WebhookDeliveriesRepository;
  @Inject(ActiveHookIndex) private readonly index: ActiveHookIndex;

  async beforeSave({ values: given, dto: body, existing }: SaveContext<WebHookDto | WebHookUpdateDto>): Promise<SaveDecision> {
    const values = { ...given };
    // A partial update: a required field that is null keeps its value as an absent one does.
    if (existing) for (const field of REQUIRED) if (values[field] === null) delete values[field];
    if (values.URL !== undefined && !isHookUrl(String(values.URL))) {
      throw RecordValidationException.field(
        'URL',
        'URL must be an absolute http or https URL without a user name or password.',
        values.URL,
      );
    }
    if (body.Secret !== undefined && body.Secret !== null) {
      if (body.Secret.length < SECRET_MIN)
        throw RecordValidationException.field('Secret', `Secret must be at least ${SECRET_MIN} characters long.`, null);
    } else if (existing) {
      delete values.Secret;
    } else {
      values.Secret = generateSecret();
    }
    if (values.Active === true) values.ErrorCount = 0;
    return { values };
  }

  /**
   * A created or updated hook may be one a change must now fire, on any instance: the answer waits until
   * no instance's index of active hooks predates it (active-hook-index.ts). A delete only takes hooks away.
   */
  async afterCommit(action: ChangeAction): Promise<void> {
    if (action !== 'Delete') await this.index.hookWritten();
  }

  /** A hook moved to another business sends nothing it had pending for the first (docs/api.md §7.4). */
  async afterSave(id: number, { values, existing, tx }: SaveContext<WebHookDto | WebHookUpdateDto>): Promise<void> {
    if (!existing || values.BusinessId === undefined || Number(values.BusinessId) === Number(existing.BusinessId)) return;
    await this.deliveries.dropForOtherBusinesses(id, Number(values.BusinessId), tx);
  }
}
