import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { productBookingCredits } from './product-booking-credits.definition.js';

@Module(RecordModule.forType({ definition: productBookingCredits }))
export class ProductBookingCreditsModule {}
