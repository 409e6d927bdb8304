import { Entity } from 'typeorm';
import { IntColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';
import { CoworkerProduct } from '../../billing/coworker-products/coworker-product.entity.js';
import { Product } from '../../billing/products/product.entity.js';
import { Booking } from '../bookings/booking.entity.js';

/** A product sold with a booking (docs/bookings.md): its sale is CoworkerProductId, made when it was created. */
@Entity('bookingproduct')
export class BookingProduct extends RecordEntity {
  @IntColumn({ nullable: false, references: () => Booking }) BookingId: number;
  @IntColumn({ nullable: false, references: () => Product }) ProductId: number;
  @IntColumn({ nullable: false, default: 1 }) Quantity: number;
  @IntColumn({ nullable: false, references: () => CoworkerProduct }) CoworkerProductId: number;
}
