import { Module } from '@nestjs/common';
import { CoworkerProductsModule } from '../../billing/coworker-products/coworker-products.module.js';
import { Product } from '../../billing/products/product.entity.js';
import { defineRecord } from '../../common/record-definition.js';
import { recordModule } from '../../common/record.module.js';
import { Booking } from '../bookings/booking.entity.js';
import { BookingProduct } from './booking-product.entity.js';
import { BookingProductsService } from './booking-products.service.js';
import { BookingProductDto } from './dto/booking-product.dto.js';

export const bookingProducts = defineRecord({
  name: 'BookingProduct',
  path: 'spaces/bookingproducts',
  entity: BookingProduct,
  dto: BookingProductDto,
  business: { via: () => Booking, on: 'BookingId' },
  reads: {
    ProductName: { from: () => Product, on: 'ProductId', column: 'Name' },
  },
  toStringText: (p) => `${p.Quantity} x ${p.ProductName}`,
});

@Module(recordModule(bookingProducts, { service: BookingProductsService, imports: [CoworkerProductsModule] }))
export class BookingProductsModule {}
