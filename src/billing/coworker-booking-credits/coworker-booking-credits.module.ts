import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { ApplicableCreditsController } from './coworker-booking-credits.controller.js';
import { coworkerBookingCredits } from './coworker-booking-credits.definition.js';
import { CoworkerBookingCreditsRepository } from './coworker-booking-credits.repository.js';
import { CoworkerBookingCreditsRules } from './coworker-booking-credits.rules.js';
import { CoworkerBookingCreditsService } from './coworker-booking-credits.service.js';

@Module(
  RecordModule.forType({
    definition: coworkerBookingCredits,
    rules: CoworkerBookingCreditsRules,
    controllers: [ApplicableCreditsController],
    providers: [CoworkerBookingCreditsRepository, CoworkerBookingCreditsService],
    exports: [CoworkerBookingCreditsService],
  }),
)
export class CoworkerBookingCreditsModule {}
