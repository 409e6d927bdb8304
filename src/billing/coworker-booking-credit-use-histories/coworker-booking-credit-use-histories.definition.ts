import { defineRecord } from '../../records/record-definition.js';
import { Coworker } from '../../customers/coworker.entity.js';
import { CoworkerBookingCredit } from '../coworker-booking-credits/coworker-booking-credit.entity.js';
import { CoworkerBookingCreditUseHistory } from './coworker-booking-credit-use-history.entity.js';

export const coworkerBookingCreditUseHistories = defineRecord({
  name: 'CoworkerBookingCreditUseHistory',
  path: 'billing/coworkerbookingcreditusehistories',
  entity: CoworkerBookingCreditUseHistory,
  operations: ['list', 'get'],
  // Written by bookings and billing runs only: the other methods answer 405.
  methodNotAllowed: true,
  business: { via: () => CoworkerBookingCredit, on: 'CoworkerBookingCreditId' },
  reads: {
    CoworkerFullName: { from: () => Coworker, on: 'CoworkerId', column: 'FullName' },
  },
  toStringText: (u) =>
    `${u.CreditUsed} of credit ${u.CoworkerBookingCreditId} for ${u.BookingId === null ? `invoice line ${u.CoworkerInvoiceLineId}` : `booking ${u.BookingId}`}${u.Returned ? ' (returned)' : ''}`,
});
