import { Bool, Enum, Reference, Text } from '../../../records/validation/fields.js';
import { RecordDto } from '../../../records/validation/record.dto.js';
import { Business } from '../../../kernel/businesses/business.entity.js';
import { WEBHOOK_ACTIONS } from '../webhook-actions.js';
import { URL_MAX } from '../webhook.entity.js';

const ACTION_IDS = WEBHOOK_ACTIONS.map((action) => action.Id);

export class WebHookDto extends RecordDto {
  @Reference(() => Business, { required: true }) BusinessId: number;
  @Text({ required: true }) Name: string;
  @Enum(ACTION_IDS, { required: true }) Action: number;
  /** Absolute http or https URL, without user name or password. */
  @Text({ required: true, max: URL_MAX }) URL: string;
  @Text({ long: true }) Description?: string | null;
  @Bool() Active?: boolean | null;
  /** Write-only; 16 to 255 characters. Without one, a hook gets a generated `whsec_` secret. */
  @Text() Secret?: string | null;
}

/** An update may be partial: absent fields, required ones included, keep their stored values. */
export class WebHookUpdateDto extends RecordDto {
  @Reference(() => Business) BusinessId?: number | null;
  @Text() Name?: string | null;
  @Enum(ACTION_IDS) Action?: number | null;
  @Text({ max: URL_MAX }) URL?: string | null;
  @Text({ long: true }) Description?: string | null;
  @Bool() Active?: boolean | null;
  @Text() Secret?: string | null;
}
