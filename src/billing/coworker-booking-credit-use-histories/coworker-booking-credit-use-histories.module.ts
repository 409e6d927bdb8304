import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { CoworkerBookingCreditsModule } from '../coworker-booking-credits/coworker-booking-credits.module.js';
import { coworkerBookingCreditUseHistories } from './coworker-booking-credit-use-histories.definition.js';
import { CoworkerBookingCreditUseHistoriesService } from './coworker-booking-credit-use-histories.service.js';
import { CreditSpendingRepository } from './credit-spending.repository.js';

@Module(
  RecordModule.forType({
    definition: coworkerBookingCreditUseHistories,
    providers: [CreditSpendingRepository, CoworkerBookingCreditUseHistoriesService],
    exports: [CoworkerBookingCreditUseHistoriesService],
    imports: [CoworkerBookingCreditsModule],
  }),
)
export class CoworkerBookingCreditUseHistoriesModule {}
