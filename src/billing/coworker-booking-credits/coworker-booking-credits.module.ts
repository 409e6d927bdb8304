import { Module } from '@nestjs/common';
import { defineRecord } from '../../common/record-definition.js';
import { recordModule } from '../../common/record.module.js';
import { Coworker } from '../../spaces/coworkers/coworker.entity.js';
import { ApplicableCreditsController } from './coworker-booking-credits.controller.js';
import { CoworkerBookingCredit } from './coworker-booking-credit.entity.js';
import { CoworkerBookingCreditsRepository } from './coworker-booking-credits.repository.js';
import { CoworkerBookingCreditsService } from './coworker-booking-credits.service.js';
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

@Module(recordModule(coworkerBookingCredits, { service: CoworkerBookingCreditsService, controllers: [ApplicableCreditsController], providers: [CoworkerBookingCreditsRepository] }))
export class CoworkerBookingCreditsModule {}
