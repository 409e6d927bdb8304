import { MAX_SALE_QUANTITY } from '../../../billing/coworker-products/dto/coworker-product.dto.js';
import { Product } from '../../../billing/products/product.entity.js';
import { Integer, Reference } from '../../../records/validation/fields.js';
import { RecordDto } from '../../../records/validation/record.dto.js';
import { Booking } from '../../bookings/booking.entity.js';

/** A product sold with a booking; BookingId, ProductId and Quantity stay as sold. */
export class BookingProductDto extends RecordDto {
  @Reference(() => Booking, { required: true }) BookingId: number;
  /** A product of the booking's business, sold to the booking's customer. */
  @Reference(() => Product, { required: true, sameBusiness: true }) ProductId: number;
  /** Units sold; 1 unless given. */
  @Integer({ min: 1, max: MAX_SALE_QUANTITY }) Quantity?: number | null;
}
