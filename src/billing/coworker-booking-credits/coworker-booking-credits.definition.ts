import { defineRecord } from '../../records/record-definition.js';
import { Coworker } from '../../customers/coworker.entity.js';
import { CoworkerBookingCredit } from './coworker-booking-credit.entity.js';
import { CoworkerBookingCreditDto } from './dto/coworker-booking-credit.dto.js';

export const coworkerBookingCredits = defineRecord({
  name: 'CoworkerBookingCredit',
  path: 'billing/coworkerbookingcredits',
  entity: CoworkerBookingCredit,
  dto: CoworkerBookingCreditDto,
  business: { column: 'BusinessId' },
  reads: {
    CoworkerFullName: { from: () => Coworker, on: 'CoworkerId', column: 'FullName' },
  },
  toStringText: (c) => String(c.Description ?? `Booking credit ${c.Id}`),
});
