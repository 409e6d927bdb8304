import { Module } from '@nestjs/common';
import { defineRecord } from '../../common/record-definition.js';
import { recordModule } from '../../common/record.module.js';
import { Coworker } from '../../spaces/coworkers/coworker.entity.js';
import { CoworkerBookingCredit } from '../coworker-booking-credits/coworker-booking-credit.entity.js';
import { CoworkerBookingCreditsModule } from '../coworker-booking-credits/coworker-booking-credits.module.js';
import { CoworkerBookingCreditUseHistoriesService } from './coworker-booking-credit-use-histories.service.js';
import { CoworkerBookingCreditUseHistory } from './coworker-booking-credit-use-history.entity.js';
import { CreditSpendingRepository } from './credit-spending.repository.js';

export const coworkerBookingCreditUseHistories = defineRecord({
  name: 'CoworkerBookingCreditUseHistory',
  path: 'billing/coworkerbookingcreditusehistories',
  entity: CoworkerBookingCreditUseHistory,
  operations: ['list', 'get'],
  // Written by bookings only: the other methods answer 405.
  methodNotAllowed: true,
  business: { via: () => CoworkerBookingCredit, on: 'CoworkerBookingCreditId' },
  reads: {
    CoworkerFullName: { from: () => Coworker, on: 'CoworkerId', column: 'FullName' },
  },
  toStringText: (u) => `${u.CreditUsed} of credit ${u.CoworkerBookingCreditId} for booking ${u.BookingId}${u.Returned ? ' (returned)' : ''}`,
});

@Module(recordModule(coworkerBookingCreditUseHistories, {
  service: CoworkerBookingCreditUseHistoriesService,
  providers: [CreditSpendingRepository],
  imports: [CoworkerBookingCreditsModule],
}))
export class CoworkerBookingCreditUseHistoriesModule {}
