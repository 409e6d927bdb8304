import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { CoworkerProductsModule } from '../../billing/coworker-products/coworker-products.module.js';
import { bookingProducts } from './booking-products.definition.js';
import { BookingProductsRules } from './booking-products.rules.js';
import { BookingProductsRepository } from './booking-products.repository.js';

@Module(
  RecordModule.forType({
    definition: bookingProducts,
    rules: BookingProductsRules,
    providers: [BookingProductsRepository],
    imports: [CoworkerProductsModule],
  }),
)
export class BookingProductsModule {}
