import { Inject, Injectable } from '@nestjs/common';
import type { FieldError } from '../../records/envelopes.js';
import { RecordValidationException, refusal } from '../../records/errors.js';
import type { WireRecord } from '../../records/record-definition.js';
import type { DeleteContext, RecordRules, SaveContext, SaveDecision } from '../../records/record-rules.js';
import { wholeSecond } from '../coworker-booking-credits/coworker-booking-credits.service.js';
import { billedDeleteRefusal, refuseBilledChanges } from '../due-items/billed-items.js';
import { CoworkerTimePassesRepository } from './coworker-time-passes.repository.js';
import { CoworkerTimePassesService, passExpiry } from './coworker-time-passes.service.js';
import type { CoworkerTimePassDto } from './dto/coworker-time-pass.dto.js';
import type { Tx } from '../../persistence/tx.js';

/** Fields a pass keeps: whose it is. */
const OWNED = ['CoworkerId', 'BusinessId'] as const;

/** Fields of a billed pass that made its invoice line (its TimePass: the line's description, tax rate and ElegiblePasses). */
const BILLED = ['Free', 'Price', 'SaleDate', 'TimePassId'] as const;

/**
 * Customers' passes (docs/presence.md), every write in one transaction:
 * - Create: the TimePass must not be archived; Price defaults to its, SaleDate to now, ExpireDate to
 *   SaleDate + its ValidityDays (none: never). CreateMultiple N makes N records, all or none.
 * - Update: CoworkerId and BusinessId stay; a billed pass keeps Free, Price, SaleDate and TimePassId. Used, UsedDate
 *   and IsPayAsYouGo are the check-in rules' and USE_TIME_PASS's only (no body field writes them).
 * - Delete: refused once billed, or while a check-in records it.
 */
@Injectable()
export class CoworkerTimePassesRules implements RecordRules<CoworkerTimePassDto, number> {
  @Inject(CoworkerTimePassesRepository) private readonly passes: CoworkerTimePassesRepository;
  @Inject(CoworkerTimePassesService) private readonly service: CoworkerTimePassesService;

  async beforeSave(context: SaveContext<CoworkerTimePassDto>): Promise<SaveDecision<number>> {
    const values = { ...context.values };
    const { existing, tx, dto } = context;
    if (existing) {
      await this.keepOwnedAndBilled(values, existing, dto, tx);
      return { values };
    }
    const timePassId = Number(values.TimePassId);
    const kind = await this.passes.passKind(timePassId, tx);
    if (!kind) throw RecordValidationException.field('TimePassId', `TimePass ${timePassId} does not exist`, timePassId);
    if (kind.Archived)
      throw RecordValidationException.field('TimePassId', `TimePass "${kind.Name}" is archived: no new passes of it are made.`, timePassId);
    values.Price ??= kind.Price;
    values.Free ??= false;
    values.SaleDate = wholeSecond((values.SaleDate as Date | null | undefined) ?? new Date());
    values.ExpireDate ??= passExpiry(values.SaleDate as Date, kind.ValidityDays, 'SaleDate');
    return { values, pending: dto.CreateMultiple ?? 1 };
  }

  /** A create with CreateMultiple N makes the N−1 further passes; the answer's Value lists all N ids. */
  async afterSave(id: number, saved: SaveContext<CoworkerTimePassDto>, count?: number): Promise<Record<string, unknown> | void> {
    if (saved.existing || count === undefined) return;
    const more = count > 1 ? await this.service.copies(saved.tx, saved.values, count - 1, saved.actor) : [];
    return { Ids: [id, ...more] };
  }

  async beforeDelete(pass: WireRecord, { tx }: DeleteContext): Promise<void> {
    if (pass.Invoiced === true || !(await this.passes.holdUnbilled(Number(pass.Id), tx)))
      throw refusal(billedDeleteRefusal('CoworkerTimePass', pass.Id));
    const checkin = await this.passes.checkinUsing(pass.UniqueId, tx);
    if (checkin !== null)
      throw refusal(
        `CoworkerTimePass ${pass.Id} cannot be deleted: Checkin ${checkin} used it. Delete the check-in to give the pass back.`,
      );
  }

  /** An update may not move the pass to another customer or business, nor change what was billed. */
  private async keepOwnedAndBilled(values: Record<string, unknown>, existing: WireRecord, dto: CoworkerTimePassDto, tx: Tx): Promise<void> {
    const errors: FieldError[] = [];
    for (const field of OWNED) {
      if (values[field] === undefined || values[field] === null) {
        delete values[field];
        continue;
      }
      if (Number(values[field]) !== Number(existing[field])) {
        errors.push({
          PropertyName: field,
          AttemptedValue: values[field],
          Message: `${field} of a pass cannot be changed (it is ${existing[field]}): delete the pass and make one for the other customer.`,
        });
      }
    }
    if (errors.length) throw new RecordValidationException(errors);
    // A required or defaulted field sent as null keeps its stored value.
    for (const field of ['TimePassId', 'Price', 'SaleDate', 'Free'] as const) if (dto[field] === null) delete values[field];
    if (values.SaleDate instanceof Date) values.SaleDate = wholeSecond(values.SaleDate);
    const changesBilled = BILLED.some((field) => values[field] !== undefined);
    // The hold waits for a billing run's claim of the pass, so a billed value never changes under it.
    if (changesBilled && (existing.Invoiced === true || !(await this.passes.holdUnbilled(Number(existing.Id), tx)))) {
      refuseBilledChanges('CoworkerTimePass', BILLED, values, existing);
    }
  }
}
