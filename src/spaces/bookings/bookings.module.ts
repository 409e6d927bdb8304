import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { BillingRunsModule } from '../../billing/billing-runs/billing-runs.module.js';
import { CoworkerBookingCreditUseHistoriesModule } from '../../billing/coworker-booking-credit-use-histories/coworker-booking-credit-use-histories.module.js';
import { CoworkerContractsModule } from '../../billing/coworker-contracts/coworker-contracts.module.js';
import { BookingProductsModule } from '../booking-products/booking-products.module.js';
import { BookingCharges } from './booking-charges.js';
import { BookingCommands } from './booking-commands.js';
import { BookingAvailabilityController } from './bookings.controller.js';
import { bookings } from './bookings.definition.js';
import { BookingsRepository } from './bookings.repository.js';
import { BookingsRules } from './bookings.rules.js';
import { bookingEvents } from './bookings.events.js';

@Module(
  RecordModule.forType({
    definition: bookings,
    events: bookingEvents,
    rules: BookingsRules,
    controllers: [BookingAvailabilityController],
    providers: [BookingsRepository, BookingCommands, BookingCharges],
    imports: [CoworkerBookingCreditUseHistoriesModule, CoworkerContractsModule, BookingProductsModule, BillingRunsModule],
  }),
)
export class BookingsModule {}
