import { Bool, DateTime, Reference, Text } from '../../../records/validation/fields.js';
import { RecordDto } from '../../../records/validation/record.dto.js';
import { Coworker } from '../../../customers/coworker.entity.js';
import { Resource } from '../../resources/resource.entity.js';

/** A booking (docs/bookings.md); the amounts are the service's, never the body's. */
export class BookingDto extends RecordDto {
  /** The resource booked: not archived. */
  @Reference(() => Resource, { required: true }) ResourceId: number;
  /** A customer of the resource's business. */
  @Reference(() => Coworker, { required: true }) CoworkerId: number;
  /** Start, in whole minutes. */
  @DateTime({ required: true, bounded: true }) FromTime: Date;
  /** End (exclusive), after FromTime, in whole minutes. */
  @DateTime({ required: true, bounded: true }) ToTime: Date;
  /** Holds the resource without charging it until a PUT makes it firm. */
  @Bool() Tentative?: boolean | null;
  @Text({ long: true }) Notes?: string | null;
  /** Charge the whole price: spend no booking credit. */
  @Bool() DoNotUseBookingCredit?: boolean | null;
}

/**
 * The update body: as on the platform a field left out keeps its stored value (docs/api.md §1.2), so a
 * move may send only the times. Given, each field is checked as on create.
 */
export class BookingUpdateDto extends RecordDto {
  @Reference(() => Resource) ResourceId?: number;
  @Reference(() => Coworker) CoworkerId?: number;
  @DateTime({ bounded: true }) FromTime?: Date;
  @DateTime({ bounded: true }) ToTime?: Date;
  @Bool() Tentative?: boolean | null;
  @Text({ long: true }) Notes?: string | null;
  @Bool() DoNotUseBookingCredit?: boolean | null;
}
