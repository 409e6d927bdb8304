import { Module } from '@nestjs/common';
import { RecordModule } from '../../common/record.module.js';
import { productBookingCredits } from './product-booking-credits.definition.js';

@Module(RecordModule.forType({ definition: productBookingCredits }))
export class ProductBookingCreditsModule {}
