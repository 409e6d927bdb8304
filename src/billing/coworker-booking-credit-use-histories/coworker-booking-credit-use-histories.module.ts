import { Global, Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { CoworkerBookingCreditsModule } from '../coworker-booking-credits/coworker-booking-credits.module.js';
import { CreditUses } from '../coworker-booking-credits/credit-uses.js';
import { coworkerBookingCreditUseHistories } from './coworker-booking-credit-use-histories.definition.js';
import { CoworkerBookingCreditUseHistoriesService } from './coworker-booking-credit-use-histories.service.js';
import { CreditSpendingRepository } from './credit-spending.repository.js';

@Module(
  RecordModule.forType({
    definition: coworkerBookingCreditUseHistories,
    providers: [
      CreditSpendingRepository,
      CoworkerBookingCreditUseHistoriesService,
      { provide: CreditUses, useExisting: CreditSpendingRepository },
    ],
    exports: [CoworkerBookingCreditUseHistoriesService, CreditUses],
    imports: [CoworkerBookingCreditsModule],
  }),
)
// Global: a credit's rules (a lower part) read its uses through CreditUses.
@Global()
export class CoworkerBookingCreditUseHistoriesModule {}
