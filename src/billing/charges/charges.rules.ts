import { Inject, Injectable } from '@nestjs/common';
import { Database } from '../../persistence/database.js';
import { refusal } from '../../records/errors.js';
import type { WireRecord } from '../../records/record-definition.js';
import type { DeleteContext, RecordRules, SaveContext, SaveDecision } from '../../records/record-rules.js';
import { wholeSecond } from '../coworker-booking-credits/coworker-booking-credits.service.js';
import { billedDeleteRefusal, refuseBilledChanges } from '../due-items/billed-items.js';
import { holdUnbilled } from '../due-items/flag-claims.js';
import { Charge } from './charge.entity.js';
import type { ChargeDto } from './dto/charge.dto.js';

/** Fields of a billed charge that made its invoice line (docs/api.md §13.2). */
const BILLED = ['CoworkerId', 'TotalAmount', 'TaxRateId', 'SaleDate'] as const;

/**
 * Charges (docs/billing.md "Charges"): SaleDate defaults to now; once billed, a charge cannot be deleted
 * nor its CoworkerId, TotalAmount, TaxRateId or SaleDate changed (400 naming the field). The check holds
 * the row against a run's claim (holdUnbilled), so a billed value never changes under a run.
 */
@Injectable()
export class ChargesRules implements RecordRules<ChargeDto> {
  @Inject(Database) private readonly db: Database;

  async beforeSave({ values: given, existing, dto, tx }: SaveContext<ChargeDto>): Promise<SaveDecision> {
    const values = { ...given };
    if (!existing) {
      values.SaleDate = wholeSecond((values.SaleDate as Date | null | undefined) ?? new Date());
      return { values };
    }
    // A defaulted field sent as null keeps its stored value.
    if (dto.SaleDate === null) delete values.SaleDate;
    if (values.SaleDate instanceof Date) values.SaleDate = wholeSecond(values.SaleDate);
    const changesBilled = BILLED.some((field) => values[field] !== undefined);
    if (changesBilled && (existing.Invoiced === true || !(await holdUnbilled(this.db, Charge, Number(existing.Id), tx)))) {
      refuseBilledChanges('Charge', BILLED, values, existing);
    }
    return { values };
  }

  async beforeDelete(charge: WireRecord, { tx }: DeleteContext): Promise<void> {
    if (charge.Invoiced === true || !(await holdUnbilled(this.db, Charge, Number(charge.Id), tx)))
      throw refusal(billedDeleteRefusal('Charge', charge.Id));
  }
}
