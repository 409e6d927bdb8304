import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { RecordValidationException } from '../../common/errors.js';
import type { RecordRules, SaveContext, SaveDecision } from '../../common/record-rules.js';
import { wholeSecond } from './coworker-booking-credits.service.js';
import { CoworkerBookingCreditsRepository } from './coworker-booking-credits.repository.js';
import type { CoworkerBookingCreditDto } from './dto/coworker-booking-credit.dto.js';

/** A credit written by hand: its business is its customer's, its amounts are never empty. */
@Injectable()
export class CoworkerBookingCreditsRules implements RecordRules<CoworkerBookingCreditDto> {
  @Inject(CoworkerBookingCreditsRepository) private readonly creditsRepository: CoworkerBookingCreditsRepository;

  /** A credit without a BusinessId belongs to its customer's business (restricted administrators included). */
  async businessOf(values: Readonly<Record<string, unknown>>, manager: EntityManager, byScope: () => Promise<number | null>): Promise<number | null> {
    if (values.BusinessId === undefined || values.BusinessId === null) return this.creditsRepository.customerBusiness(values.CoworkerId, manager);
    return byScope();
  }

  /** The credit's business from its customer, its amounts and whole-second dates: the values to write. */
  async beforeSave({ manager, values: given, existing }: SaveContext<CoworkerBookingCreditDto>): Promise<SaveDecision> {
    const values = { ...given };
    const coworkerId = values.CoworkerId ?? existing?.CoworkerId;
    const business = await this.creditsRepository.customerBusiness(coworkerId, manager);
    if (values.BusinessId === null || (values.BusinessId === undefined && existing === null)) values.BusinessId = business;
    const businessId = values.BusinessId ?? existing?.BusinessId;
    if (Number(businessId) !== business) {
      throw RecordValidationException.field('BusinessId', `Coworker ${coworkerId} is not a customer of Business ${businessId}.`, businessId);
    }
    if (existing === null) {
      values.TotalCredit ??= 0;
      values.RemainingCredit ??= values.TotalCredit;
    } else {
      // Cleared amounts are zero: the columns always hold a number.
      if (values.TotalCredit === null) values.TotalCredit = 0;
      if (values.RemainingCredit === null) values.RemainingCredit = 0;
    }
    for (const field of ['ValidFrom', 'ExpireDate']) if (values[field] instanceof Date) values[field] = wholeSecond(values[field]);
    return { values };
  }
}
