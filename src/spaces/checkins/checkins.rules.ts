import { Inject, Injectable } from '@nestjs/common';
import { coworkers } from '../../customers/coworkers/coworkers.definition.js';
import { CoworkerContractsRules } from '../../billing/coworker-contracts/coworker-contracts.rules.js';
import { CoworkerTimePassesService } from '../../billing/coworker-time-passes/coworker-time-passes.service.js';
import type { ChangeAction } from '../../records/field-changes.js';
import { isUniqueViolation } from '../../persistence/database-errors.js';
import type { FieldError } from '../../records/envelopes.js';
import { RecordValidationException } from '../../records/errors.js';
import type { Principal } from '../../platform/principal.js';
import type { WireRecord } from '../../records/record-definition.js';
import { StandaloneEvents } from '../../records/record-events.js';
import type { DeleteContext, RecordRules, SaveContext, SaveDecision } from '../../records/record-rules.js';
import { RecordTypes } from '../../records/record-types.js';
import { CheckinsRepository, openKeyOf } from './checkins.repository.js';
import type { CheckinDto } from './dto/checkin.dto.js';
import type { Tx } from '../../persistence/tx.js';

/** Fields a check-in keeps: who came in where. */
const WHO = ['CoworkerId', 'BusinessId'] as const;

/** Rule 5: the customer has no way in; the failed check-in event fires once the refusal rolled back. */
class NoValidPass extends RecordValidationException {
  constructor(
    readonly coworkerId: number,
    readonly businessId: number,
  ) {
    super([{ PropertyName: 'CoworkerId', Message: 'The customer has no valid pass for this business.', AttemptedValue: coworkerId }]);
  }
}

const alreadyIn = (openId: number | null) =>
  RecordValidationException.field(
    'FromTime',
    `The customer is checked in at this business already${openId ? ` (Checkin ${openId} is open)` : ''}: check out first.`,
  );

/**
 * Check-ins (docs/presence.md), every write in one transaction:
 * - Create decides how the customer is in (rules 1–5): a contract active at FromTime; else the pass an
 *   earlier check-in of the same UTC day used; else the valid pass that expires first, now used (one
 *   conditional UPDATE: a pass is used once under any concurrency); else a new pay-as-you-go pass,
 *   already used; else 400 and the failed check-in event.
 * - One open check-in (ToTime null) per customer and business: OpenKey holds `<CoworkerId>/<BusinessId>`
 *   while open, under a unique index, so whatever arrives at once on any instance or Galera node, one
 *   commits and the others roll back (their passes with them) and are answered 400 naming FromTime.
 * - Update (check-out) keeps the customer, the business and the pass; ToTime may not precede FromTime.
 * - Delete gives the pass back unless another check-in records it or it is billed (a pay-as-you-go pass
 *   goes with its check-in).
 */
@Injectable()
export class CheckinsRules implements RecordRules<CheckinDto> {
  @Inject(CheckinsRepository) private readonly checkins: CheckinsRepository;
  @Inject(CoworkerContractsRules) private readonly contracts: CoworkerContractsRules;
  @Inject(CoworkerTimePassesService) private readonly passes: CoworkerTimePassesService;
  @Inject(StandaloneEvents) private readonly outbox: StandaloneEvents;
  @Inject(RecordTypes) private readonly types: RecordTypes;

  async beforeSave(context: SaveContext<CheckinDto>): Promise<SaveDecision> {
    const { tx, actor, existing } = context;
    const values = { ...context.values };
    if (existing) this.keepWho(values, existing);
    if (values.FromTime === null) delete values.FromTime;
    const pick = (name: string) => (values[name] !== undefined ? values[name] : existing?.[name]);
    const coworkerId = Number(pick('CoworkerId'));
    const businessId = Number(pick('BusinessId'));
    const from = new Date(pick('FromTime') as Date | string);
    const toValue = pick('ToTime');
    const to = toValue === null || toValue === undefined ? null : new Date(toValue as Date | string);
    if (to && to.getTime() < from.getTime()) {
      throw RecordValidationException.field('ToTime', 'ToTime (the check-out) must not be before FromTime.', to.toISOString());
    }
    values.OpenKey = to === null ? openKeyOf(coworkerId, businessId) : null;
    if (values.OpenKey !== null) {
      const open = await this.checkins.openCheckin(String(values.OpenKey), existing ? Number(existing.Id) : 0, tx);
      if (open !== null) throw alreadyIn(open);
    }
    if (existing) return { values };
    const pass = await this.passFor(tx, coworkerId, businessId, from, actor);
    if (pass === undefined) throw new NoValidPass(coworkerId, businessId);
    values.CoworkerTimePassGuid = pass;
    return { values };
  }

  /** Rules 1–4: null (a contract), the UniqueId of the pass used, or undefined when none lets the customer in. */
  private async passFor(
    tx: Tx,
    coworkerId: number,
    businessId: number,
    at: Date,
    actor: Principal | undefined,
  ): Promise<string | null | undefined> {
    if (await this.contracts.mainActive(coworkerId, at, tx)) return null;
    const ofTheDay = await this.checkins.passOfTheDay(coworkerId, businessId, at, tx);
    if (ofTheDay !== null && (await this.passes.useAgain(tx, ofTheDay)) !== null) return ofTheDay;
    const valid = await this.passes.useValid(tx, coworkerId, businessId, at, actor);
    if (valid) return valid.UniqueId;
    return (await this.passes.makePayAsYouGo(tx, coworkerId, businessId, at, actor)) ?? undefined;
  }

  /** The pass comes back once its check-in is gone, unless another check-in of its day records it. */
  async afterDelete(checkin: WireRecord, { tx, actor }: DeleteContext): Promise<void> {
    const pass = checkin.CoworkerTimePassGuid;
    if (typeof pass !== 'string' || (await this.checkins.recordsPass(pass, Number(checkin.Id), tx))) return;
    await this.passes.giveBack(tx, pass, actor);
  }

  /**
   * Rule 5's refusal fires CoworkerCheckinFailed with the customer's record, in a transaction of its own
   * after the refused one rolled back; a second open check-in that reached the unique index is the 400
   * the check before it gives.
   */
  async mapError(error: unknown, operation: ChangeAction): Promise<unknown> {
    if (error instanceof NoValidPass) {
      const customers = this.types.records(coworkers);
      await this.outbox.fireAlone(error.businessId, 'CoworkerCheckinFailed', async (tx) => ({
        entity: 'Coworker',
        recordId: error.coworkerId,
        record: await customers.get(error.coworkerId, undefined, tx),
      }));
      return error;
    }
    if (operation !== 'Delete' && isUniqueViolation(error) && String((error as Error).message).includes('OpenKey')) return alreadyIn(null);
    return error;
  }

  /** An update may not move a check-in to another customer or business (400 naming the field). */
  private keepWho(values: Record<string, unknown>, existing: WireRecord): void {
    const errors: FieldError[] = [];
    for (const field of WHO) {
      if (values[field] === undefined || values[field] === null) {
        delete values[field];
        continue;
      }
      if (Number(values[field]) !== Number(existing[field])) {
        errors.push({
          PropertyName: field,
          AttemptedValue: values[field],
          Message: `${field} of a check-in cannot be changed (it is ${existing[field]}).`,
        });
      }
    }
    if (errors.length) throw new RecordValidationException(errors);
  }
}
