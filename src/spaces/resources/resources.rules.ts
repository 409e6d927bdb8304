import { Inject, Injectable } from '@nestjs/common';
import { RecordValidationException } from '../../records/errors.js';
import type { RecordRules, SaveContext, SaveDecision } from '../../records/record-rules.js';
import type { ResourceDto } from './dto/resource.dto.js';
import { ResourcesRepository } from './resources.repository.js';

/**
 * Resource rules (docs/bookings.md): the currency is the business's unless given; MinBookingMinutes
 * may not exceed MaxBookingMinutes; a resource with bookings stays in its business.
 */
@Injectable()
export class ResourcesRules implements RecordRules<ResourceDto> {
  @Inject(ResourcesRepository) private readonly rows: ResourcesRepository;

  async beforeSave({ tx, values: given, existing }: SaveContext<ResourceDto>): Promise<SaveDecision> {
    const values = { ...given };
    const businessId = values.BusinessId ?? existing?.BusinessId;
    if (values.CurrencyId === null || (values.CurrencyId === undefined && !existing)) {
      values.CurrencyId = await this.rows.currencyOfBusiness(businessId, tx);
    }
    const min = values.MinBookingMinutes !== undefined ? values.MinBookingMinutes : existing?.MinBookingMinutes;
    const max = values.MaxBookingMinutes !== undefined ? values.MaxBookingMinutes : existing?.MaxBookingMinutes;
    if (min !== null && min !== undefined && max !== null && max !== undefined && Number(max) < Number(min)) {
      throw RecordValidationException.field(
        'MaxBookingMinutes',
        `MaxBookingMinutes (${max}) must not be below MinBookingMinutes (${min}).`,
        max,
      );
    }
    if (existing && values.BusinessId !== undefined && Number(values.BusinessId) !== Number(existing.BusinessId)) {
      if (await this.rows.hasBookings(existing.Id, tx))
        throw RecordValidationException.field(
          'BusinessId',
          `Resource ${existing.Id} has bookings: it stays in Business ${existing.BusinessId}.`,
          values.BusinessId,
        );
    }
    return { values };
  }
}
