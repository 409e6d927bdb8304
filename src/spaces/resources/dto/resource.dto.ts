import { Bool, Integer, Money, Reference, Text } from '../../../records/validation/fields.js';
import { RecordDto } from '../../../records/validation/record.dto.js';
import { Business } from '../../../kernel/businesses/business.entity.js';
import { Currency } from '../../../kernel/currencies/currency.entity.js';
import { TaxRate } from '../../../kernel/tax-rates/tax-rate.entity.js';
import { ResourceType } from '../../resource-types/resource-type.entity.js';

/** Longest booking limit: a year, in minutes. */
export const MAX_BOOKING_MINUTES = 366 * 24 * 60;

/** A bookable resource (docs/bookings.md). */
export class ResourceDto extends RecordDto {
  @Reference(() => Business, { required: true }) BusinessId: number;
  @Text({ required: true }) Name: string;
  /** A resource type of the same business. */
  @Reference(() => ResourceType, { required: true, sameBusiness: true }) ResourceTypeId: number;
  @Text({ long: true }) Description?: string | null;
  /** How many bookings may overlap; 1 unless given. */
  @Integer({ min: 1, max: 100_000 }) Allocation?: number | null;
  /** True unless given. */
  @Bool() Visible?: boolean | null;
  /** An archived resource takes no new bookings. */
  @Bool() Archived?: boolean | null;
  /** Only customers with a contract active when the booking starts may book it. */
  @Bool() OnlyForMembers?: boolean | null;
  /** Price of an hour; 0 unless given. */
  @Money({ min: 0 }) HourlyPrice?: number | null;
  /** The business's currency unless given. */
  @Reference(() => Currency) CurrencyId?: number | null;
  /** A tax rate of the same business: its booking charges are billed with it. */
  @Reference(() => TaxRate, { sameBusiness: true }) TaxRateId?: number | null;
  /** Shortest booking, in minutes; null: no limit. */
  @Integer({ min: 1, max: MAX_BOOKING_MINUTES }) MinBookingMinutes?: number | null;
  /** Longest booking, in minutes; null: no limit. */
  @Integer({ min: 1, max: MAX_BOOKING_MINUTES }) MaxBookingMinutes?: number | null;
}
