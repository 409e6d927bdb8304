import { Product } from '../../billing/products/product.entity.js';
import { defineRecord } from '../../records/record-definition.js';
import { Booking } from '../bookings/booking.entity.js';
import { BookingProduct } from './booking-product.entity.js';
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
