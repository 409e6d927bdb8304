import { Bool, DateTime, Integer, Money, Reference, Text } from '../../../records/validation/fields.js';
import { RecordDto } from '../../../records/validation/record.dto.js';
import { Business } from '../../../kernel/businesses/business.entity.js';
import { Coworker } from '../../../customers/coworker.entity.js';
import { TimePass } from '../../time-passes/time-pass.entity.js';

/** The most passes one create makes. */
export const MAX_PASSES_PER_CREATE = 100;

/** A customer's pass (docs/presence.md); Used, UsedDate and IsPayAsYouGo are never the body's. */
export class CoworkerTimePassDto extends RecordDto {
  /** A customer of the business. */
  @Reference(() => Coworker, { required: true, sameBusiness: true }) CoworkerId: number;
  @Reference(() => Business, { required: true }) BusinessId: number;
  /** A TimePass of the business, not archived on create. */
  @Reference(() => TimePass, { required: true, sameBusiness: true }) TimePassId: number;
  /** Create only: how many passes to make (default 1). */
  @Integer({ min: 1, max: MAX_PASSES_PER_CREATE }) CreateMultiple?: number | null;
  /** Default: SaleDate + the TimePass's ValidityDays, else never. */
  @DateTime() ExpireDate?: Date | null;
  @Bool() Free?: boolean | null;
  /** Default: the TimePass's. */
  @Money({ min: 0 }) Price?: number | null;
  /** Default now: the date the pass is billed on (a billing date: 2000 to 2099, docs/api.md §9.1). */
  @DateTime({ bounded: true }) SaleDate?: Date | null;
  @Text({ long: true }) Notes?: string | null;
  @Text() PurchaseOrder?: string | null;
}
