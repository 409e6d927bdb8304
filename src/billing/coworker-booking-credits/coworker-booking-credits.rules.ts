import { Inject, Injectable } from '@nestjs/common';
import { RecordValidationException } from '../../records/errors.js';
import type { WireRecord } from '../../records/record-definition.js';
import type { RecordRules, SaveContext, SaveDecision } from '../../records/record-rules.js';
import { fromUnits, toUnits, unitsText } from '../../kernel/money.js';
import { wholeSecond } from './coworker-booking-credits.service.js';
import { CoworkerBookingCreditsRepository } from './coworker-booking-credits.repository.js';
import { CreditUses } from './credit-uses.js';
import type { CoworkerBookingCreditDto } from './dto/coworker-booking-credit.dto.js';
import type { Tx } from '../../persistence/tx.js';

/** A credit written by hand: its business is its customer's, its amounts are never empty. */
@Injectable()
export class CoworkerBookingCreditsRules implements RecordRules<CoworkerBookingCreditDto> {
  @Inject(CoworkerBookingCreditsRepository) private readonly creditsRepository: CoworkerBookingCreditsRepository;
  @Inject(CreditUses) private readonly creditUses: CreditUses;

  /** A credit without a BusinessId belongs to its customer's business (restricted administrators included). */
  async businessOf(values: Readonly<Record<string, unknown>>, tx: Tx, byScope: () => Promise<number | null>): Promise<number | null> {
    if (values.BusinessId === undefined || values.BusinessId === null)
      return this.creditsRepository.customerBusiness(values.CoworkerId, tx);
    return byScope();
  }

  /** The credit's business from its customer, its amounts and whole-second dates: the values to write. */
  async beforeSave({ tx, values: given, existing }: SaveContext<CoworkerBookingCreditDto>): Promise<SaveDecision> {
    const values = { ...given };
    const coworkerId = values.CoworkerId ?? existing?.CoworkerId;
    const business = await this.creditsRepository.customerBusiness(coworkerId, tx);
    if (values.BusinessId === null || (values.BusinessId === undefined && existing === null)) values.BusinessId = business;
    const businessId = values.BusinessId ?? existing?.BusinessId;
    if (Number(businessId) !== business) {
      throw RecordValidationException.field(
        'BusinessId',
        `Coworker ${coworkerId} is not a customer of Business ${businessId}.`,
        businessId,
      );
    }
    if (existing === null) {
      values.TotalCredit ??= 0;
      values.RemainingCredit ??= values.TotalCredit;
    } else {
      // Cleared amounts are zero: the columns always hold a number.
      if (values.TotalCredit === null) values.TotalCredit = 0;
      if (values.RemainingCredit === null) values.RemainingCredit = 0;
      Object.assign(values, await this.keptRemaining(tx, values, existing));
    }
    if (toUnits(values.RemainingCredit ?? existing?.RemainingCredit) > toUnits(values.TotalCredit ?? existing?.TotalCredit)) {
      throw RecordValidationException.field(
        'RemainingCredit',
        'RemainingCredit cannot be above TotalCredit.',
        values.RemainingCredit ?? existing?.RemainingCredit,
      );
    }
    for (const field of ['ValidFrom', 'ExpireDate']) if (values[field] instanceof Date) values[field] = wholeSecond(values[field]);
    return { values };
  }

  /**
   * RemainingCredit on update (docs/bookings.md "Credits keep their invariant"). Once a credit has uses it
   * is the service's: always TotalCredit − Σ unreturned uses, whatever the body says (a value read before
   * a booking and PUT back restores nothing), and a TotalCredit below Σ unreturned uses is a 400. Without
   * uses, a body's RemainingCredit is written; a new TotalCredit alone moves RemainingCredit with it.
   */
  private async keptRemaining(tx: Tx, values: Readonly<Record<string, unknown>>, existing: WireRecord): Promise<Record<string, unknown>> {
    const total = toUnits(values.TotalCredit ?? existing.TotalCredit);
    const uses = await this.creditUses.usesOf(Number(existing.Id), tx);
    if (uses.count > 0) {
      if (total < uses.unreturned) {
        throw RecordValidationException.field(
          'TotalCredit',
          `TotalCredit cannot be below what bookings use of it (${fromUnits(uses.unreturned)}).`,
          values.TotalCredit,
        );
      }
      return { RemainingCredit: unitsText(total - uses.unreturned) };
    }
    if (values.RemainingCredit !== undefined || values.TotalCredit === undefined) return {};
    const remaining = toUnits(existing.RemainingCredit) + total - toUnits(existing.TotalCredit);
    return { RemainingCredit: unitsText(remaining > 0n ? remaining : 0n) };
  }
}
