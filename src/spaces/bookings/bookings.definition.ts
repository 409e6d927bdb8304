import { defineRecord } from '../../records/record-definition.js';
import { Coworker } from '../../customers/coworker.entity.js';
import { Resource } from '../resources/resource.entity.js';
import { Booking } from './booking.entity.js';
import { BookingDto, BookingUpdateDto } from './dto/booking.dto.js';

export const bookings = defineRecord({
  name: 'Booking',
  path: 'spaces/bookings',
  entity: Booking,
  dto: BookingDto,
  updateDto: BookingUpdateDto,
  business: { column: 'BusinessId' },
  commands: true,
  reads: {
    ResourceName: { from: () => Resource, on: 'ResourceId', column: 'Name' },
    CoworkerFullName: { from: () => Coworker, on: 'CoworkerId', column: 'FullName' },
  },
  toStringText: (b) => `${b.ResourceName} - ${b.CoworkerFullName} (${b.FromTime})`,
});
