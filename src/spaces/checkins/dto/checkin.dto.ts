import { Bool, DateTime, Reference, Text } from '../../../records/validation/fields.js';
import { RecordDto } from '../../../records/validation/record.dto.js';
import { Business } from '../../../kernel/businesses/business.entity.js';
import { Coworker } from '../../../customers/coworker.entity.js';

/** A check-in (docs/presence.md); the pass it uses is the rules', never the body's. */
export class CheckinDto extends RecordDto {
  @Reference(() => Business, { required: true }) BusinessId: number;
  /** A customer of the business. */
  @Reference(() => Coworker, { required: true, sameBusiness: true }) CoworkerId: number;
  @DateTime({ required: true }) FromTime: Date;
  /** The check-out, not before FromTime; null while in. */
  @DateTime() ToTime?: Date | null;
  /** As sent, e.g. "Manual". */
  @Text() Source?: string | null;
  @Bool() AutoCheckout?: boolean | null;
  @Bool() CountsTowardsPlanLimits?: boolean | null;
}

/**
 * The update body (a check-out): as on create, but the customer and business cannot change (the rules
 * refuse a change naming the field), so the customer is not checked against a business given with it.
 */
export class CheckinUpdateDto extends RecordDto {
  @Reference(() => Business, { required: true }) BusinessId: number;
  @Reference(() => Coworker, { required: true }) CoworkerId: number;
  @DateTime({ required: true }) FromTime: Date;
  @DateTime() ToTime?: Date | null;
  @Text() Source?: string | null;
  @Bool() AutoCheckout?: boolean | null;
  @Bool() CountsTowardsPlanLimits?: boolean | null;
}
