import { Inject, Injectable } from '@nestjs/common';
import { RecordValidationException } from '../../common/errors.js';
import { Business } from '../../kernel/businesses/business.entity.js';
import { Booking } from '../bookings/booking.entity.js';
import type { RecordRules, SaveContext, SaveDecision } from '../../common/record-rules.js';
import { Database } from '../../common/database.js';
import type { ResourceDto } from './dto/resource.dto.js';

/**
 * Resource rules (docs/bookings.md): the currency is the business's unless given; MinBookingMinutes
 * may not exceed MaxBookingMinutes; a resource with bookings stays in its business.
 */
@Injectable()
export class ResourcesRules implements RecordRules<ResourceDto> {
  @Inject(Database) private readonly db: Database;

  async beforeSave({ manager, values: given, existing }: SaveContext<ResourceDto>): Promise<SaveDecision> {
    const values = { ...given };
    const { db } = this;
    const businessId = values.BusinessId ?? existing?.BusinessId;
    if (values.CurrencyId === null || (values.CurrencyId === undefined && !existing)) {
      const [business] = await db.query<{ c: number }>(`SELECT ${db.id('CurrencyId')} AS c FROM ${db.tableOf(Business)} WHERE ${db.id('Id')} = ?`, [businessId], manager);
      values.CurrencyId = business ? Number(business.c) : null;
    }
    const min = values.MinBookingMinutes !== undefined ? values.MinBookingMinutes : existing?.MinBookingMinutes;
    const max = values.MaxBookingMinutes !== undefined ? values.MaxBookingMinutes : existing?.MaxBookingMinutes;
    if (min !== null && min !== undefined && max !== null && max !== undefined && Number(max) < Number(min)) {
      throw RecordValidationException.field('MaxBookingMinutes', `MaxBookingMinutes (${max}) must not be below MinBookingMinutes (${min}).`, max);
    }
    if (existing && values.BusinessId !== undefined && Number(values.BusinessId) !== Number(existing.BusinessId)) {
      const [booked] = await db.query(`SELECT 1 AS x FROM ${db.tableOf(Booking)} WHERE ${db.id('ResourceId')} = ? LIMIT 1`, [existing.Id], manager);
      if (booked) throw RecordValidationException.field('BusinessId', `Resource ${existing.Id} has bookings: it stays in Business ${existing.BusinessId}.`, values.BusinessId);
    }
    return { values };
  }
}
