import { Module } from '@nestjs/common';
import { CoworkerBookingCreditUseHistoriesModule } from '../../billing/coworker-booking-credit-use-histories/coworker-booking-credit-use-histories.module.js';
import { BillingRunsModule } from '../../billing/billing-runs/billing-runs.module.js';
import { CoworkerContractsModule } from '../../billing/coworker-contracts/coworker-contracts.module.js';
import { defineRecord } from '../../common/record-definition.js';
import { recordModule } from '../../common/record.module.js';
import { BookingProductsModule } from '../booking-products/booking-products.module.js';
import { Coworker } from '../coworkers/coworker.entity.js';
import { Resource } from '../resources/resource.entity.js';
import { BookingCharges } from './booking-charges.js';
import { BookingCommands } from './booking-commands.js';
import { BookingAvailabilityController } from './bookings.controller.js';
import { Booking } from './booking.entity.js';
import { BookingsRepository } from './bookings.repository.js';
import { BookingsService } from './bookings.service.js';
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

@Module(recordModule(bookings, {
  service: BookingsService,
  controllers: [BookingAvailabilityController],
  providers: [BookingsRepository, BookingCommands, BookingCharges],
  imports: [CoworkerBookingCreditUseHistoriesModule, CoworkerContractsModule, BookingProductsModule, BillingRunsModule],
}))
export class BookingsModule {}
