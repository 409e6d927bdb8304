import { Inject, Injectable } from '@nestjs/common';
import { CoworkerProductDto } from '../../billing/coworker-products/dto/coworker-product.dto.js';
import { coworkerProducts } from '../../billing/coworker-products/coworker-products.definition.js';
import { InjectRecords } from '../../records/record.module.js';
import type { RecordService } from '../../records/record.service.js';
import { RecordValidationException, refusal } from '../../records/errors.js';
import type { FieldError } from '../../records/envelopes.js';
import type { Principal } from '../../platform/principal.js';
import type { WireRecord } from '../../records/record-definition.js';
import type { DeleteContext, RecordRules, SaveContext, SaveDecision } from '../../records/record-rules.js';
import type { BookingProductDto } from './dto/booking-product.dto.js';
import { BookingProductsRepository } from './booking-products.repository.js';

const AS_SOLD = ['BookingId', 'ProductId', 'Quantity'] as const;

/**
 * The actor of a write a domain rule makes besides the request's own. No If-Match or ETag of the request
 * applies to it: `createWithin`/`deleteWithin` never take them (only the request's own create, update
 * or delete is given its write scope, by the record router).
 */
export const besides = (actor: Principal | undefined): Principal | undefined => actor;

/**
 * Products sold with a booking (docs/bookings.md). Creating one makes the sale of docs/api.md §3.1
 * (a CoworkerProduct of the booking's customer at the product's price: stock, credit release) through
 * the sales rules, in the same transaction; deleting it deletes that sale, refused once the sale is
 * invoiced (or its credits used). What was sold cannot change.
 */
@Injectable()
export class BookingProductsRules implements RecordRules<BookingProductDto> {
  @Inject(BookingProductsRepository) private readonly rows: BookingProductsRepository;
  @InjectRecords(coworkerProducts) private readonly sales: RecordService;

  async beforeSave(context: SaveContext<BookingProductDto>): Promise<SaveDecision> {
    if (context.existing) return { values: this.keepAsSold(context.values, context.existing) };
    const { tx, actor } = context;
    const values = { ...context.values };
    const bookingId = Number(values.BookingId);
    const customer = await this.rows.customerOfBooking(bookingId, tx);
    if (customer === null) throw RecordValidationException.field('BookingId', `Booking ${bookingId} does not exist`, bookingId);
    values.Quantity ??= 1;
    const sale = Object.assign(new CoworkerProductDto(), {
      CoworkerId: customer,
      ProductId: Number(values.ProductId),
      Quantity: values.Quantity,
    });
    values.CoworkerProductId = await this.sales.createWithin(tx, sale, besides(actor));
    return { values };
  }

  /** An invoiced sale stays: credit its invoice instead. */
  async beforeDelete(record: WireRecord, { tx }: DeleteContext): Promise<void> {
    const sale = await this.sales.get(Number(record.CoworkerProductId), undefined, tx);
    if (sale.Invoiced === true) {
      throw refusal(
        `BookingProduct ${record.Id} cannot be deleted: its sale (CoworkerProduct ${sale.Id}) has been invoiced. Credit the invoice instead.`,
      );
    }
  }

  /** The sale goes with it, by the sales rules (refused when its booking credits were used). */
  async afterDelete(record: WireRecord, { tx, actor }: DeleteContext): Promise<void> {
    await this.sales.deleteWithin(tx, Number(record.CoworkerProductId), besides(actor));
  }

  private keepAsSold(given: Readonly<Record<string, unknown>>, existing: WireRecord): Record<string, unknown> {
    const values = { ...given };
    const errors: FieldError[] = [];
    for (const field of AS_SOLD) {
      const value = values[field];
      if (value === undefined || value === null) {
        delete values[field];
        continue;
      }
      if (Number(value) !== Number(existing[field])) {
        errors.push({
          PropertyName: field,
          AttemptedValue: value,
          Message: `${field} of a booking product cannot be changed (it is ${existing[field]}): its sale was made for it. Delete it and add another.`,
        });
      }
    }
    if (errors.length) throw new RecordValidationException(errors);
    return values;
  }
}
