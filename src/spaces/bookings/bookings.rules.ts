import { Inject, Injectable } from '@nestjs/common';
import { CoworkerBookingCreditUseHistoriesService } from '../../billing/coworker-booking-credit-use-histories/coworker-booking-credit-use-histories.service.js';
import type { CreditQuestion } from '../../billing/coworker-booking-credit-use-histories/credit-spending.repository.js';
import { spent, type Spend } from '../../billing/coworker-booking-credit-use-histories/spend-rules.js';
import { CoworkerContractsRules } from '../../billing/coworker-contracts/coworker-contracts.rules.js';
import { RecordNotFoundException, RecordValidationException } from '../../records/errors.js';
import { fromUnits, toUnits, unitsText } from '../../kernel/money.js';
import type { Principal } from '../../platform/principal.js';
import type { WireRecord } from '../../records/record-definition.js';
import { MONEY_LIMIT } from '../../records/validation/fields.js';
import { bookingProducts } from '../booking-products/booking-products.definition.js';
import { besides } from '../booking-products/booking-products.rules.js';
import { InjectRecords } from '../../records/record.module.js';
import {
  bookingPrice,
  bookingRefusal,
  lengthBoundRefusal,
  minutesBetween,
  timesRefusal,
  type BookingFacts,
  type BookingRefusal,
} from './booking-rules.js';
import { BookingsRepository } from './bookings.repository.js';
import type { BookingDto } from './dto/booking.dto.js';
import type { DeleteContext, RecordRules, SaveContext, SaveDecision } from '../../records/record-rules.js';
import { refusal as refusalOf } from '../../records/errors.js';
import { RecordTypes } from '../../records/record-types.js';
import type { RecordService } from '../../records/record.service.js';
import { bookings } from './bookings.definition.js';
import type { Tx } from '../../persistence/tx.js';

/** A booking as it will stand after the write: the body's values over the stored ones. */
interface BookingTarget {
  ResourceId: number;
  CoworkerId: number;
  FromTime: Date;
  ToTime: Date;
  Tentative: boolean;
  DoNotUseBookingCredit: boolean;
}

/** What a booking costs and how it is paid. */
interface Charges {
  price: bigint;
  spends: Spend[];
  creditUsed: bigint;
  charge: bigint;
}

/** The answer of `POST /api/spaces/bookings/available` (docs/bookings.md). */
export interface Availability {
  Available: boolean;
  Message: string | null;
  Price: number;
  CreditUsed: number;
  ChargeAmount: number;
}

/** The fields whose change moves or re-prices a booking. */
const PRICED = ['ResourceId', 'CoworkerId', 'FromTime', 'ToTime', 'Tentative', 'DoNotUseBookingCredit'] as const;

/** The fields a booking always has. */
const REQUIRED = ['ResourceId', 'CoworkerId', 'FromTime', 'ToTime'] as const;

const refused = (refusal: BookingRefusal) => RecordValidationException.field(refusal.field, refusal.message, refusal.value);

/**
 * Bookings (docs/bookings.md), every write in one transaction:
 * - Create and move: the resource's row is updated first (BookingsRepository.lockResource), so the
 *   bookings of one resource are decided one at a time on any instance or node; then the rules of
 *   booking-rules.ts (times, archived, the customer's business, length, members only, allocation),
 *   the price, and the customer's credits spent (CoworkerBookingCreditUseHistoriesService.take).
 *   A move gives back the credits first and spends again; a tentative booking spends nothing and is
 *   charged nothing until a PUT makes it firm.
 * - Delete: refused once invoiced; otherwise its products' sales go, and its credits come back.
 * - `available` decides with the same reads and rules and writes nothing.
 */
@Injectable()
export class BookingsRules implements RecordRules<BookingDto> {
  @Inject(RecordTypes) private readonly types: RecordTypes;
  @Inject(BookingsRepository) private readonly bookings: BookingsRepository;
  @Inject(CoworkerBookingCreditUseHistoriesService) private readonly uses: CoworkerBookingCreditUseHistoriesService;
  @Inject(CoworkerContractsRules) private readonly contracts: CoworkerContractsRules;
  @InjectRecords(bookingProducts) private readonly products: RecordService;

  /** This type's RecordService, for the records the rules write besides a request's own. */
  private get records(): RecordService {
    return this.types.records(bookings);
  }

  async beforeSave(context: SaveContext<BookingDto>): Promise<SaveDecision<{ spends: Spend[]; coworkerId: number }>> {
    const { tx, actor, existing } = context;
    const values = { ...context.values };
    // A required field sent as null on update keeps its stored value, as one left out does.
    for (const field of REQUIRED) if (values[field] === null) delete values[field];
    const target = this.target(values, existing);
    if (existing && !PRICED.some((field) => this.changes(field, target, existing))) return { values };
    const tooLong = lengthBoundRefusal(target.FromTime, target.ToTime);
    if (tooLong) throw refused(tooLong);
    if (existing)
      this.refuseUnheld(
        existing,
        existing.Invoiced === true ? 'invoiced' : await this.bookings.holdUninvoiced(Number(existing.Id), tx),
        'moved or re-priced',
      );
    // The write that serialises the resource's bookings comes before anything is read.
    if (!(await this.bookings.lockResource(target.ResourceId, tx))) {
      throw RecordValidationException.field('ResourceId', `Resource ${target.ResourceId} does not exist`, target.ResourceId);
    }
    if (existing) await this.uses.giveBack(tx, actor, Number(existing.Id));
    const facts = await this.facts(target, existing ? Number(existing.Id) : 0, tx);
    const refusal = bookingRefusal(facts);
    if (refusal) throw refused(refusal);
    const charges = await this.charges(target, facts, (question, amount) => this.uses.take(tx, actor, question, amount));
    values.BusinessId = facts.resource.BusinessId;
    values.Price = unitsText(charges.price);
    values.CreditUsed = unitsText(charges.creditUsed);
    values.ChargeAmount = unitsText(charges.charge);
    return { values, pending: { spends: charges.spends, coworkerId: target.CoworkerId } };
  }

  /** The use-history records of the credits spent, now that the booking has its Id. */
  async afterSave(id: number, saved: SaveContext<BookingDto>, pending?: { spends: Spend[]; coworkerId: number }): Promise<void> {
    if (pending?.spends.length) await this.uses.recordUses(saved.tx, saved.actor, id, pending.coworkerId, pending.spends);
  }

  async beforeDelete(booking: WireRecord, { tx, actor }: DeleteContext): Promise<void> {
    this.refuseUnheld(
      booking,
      booking.Invoiced === true ? 'invoiced' : await this.bookings.holdUninvoiced(Number(booking.Id), tx),
      'deleted',
    );
    for (const productId of await this.bookings.productIds(Number(booking.Id), tx))
      await this.products.deleteWithin(tx, productId, besides(actor));
    await this.uses.giveBack(tx, actor, Number(booking.Id));
  }

  /**
   * The loser of a race to cancel, delete or move a booking finds it gone: 404, as for any id that
   * names nothing (the cancel command answers its usual "does not exist"), not "has been invoiced".
   */
  private refuseUnheld(booking: WireRecord, hold: 'held' | 'invoiced' | 'gone', change: string): void {
    if (hold === 'gone') throw new RecordNotFoundException();
    if (hold === 'invoiced')
      throw refusalOf(`Booking ${booking.Id} has been invoiced and cannot be ${change}. Credit its invoice instead.`);
  }

  /**
   * `POST /api/spaces/bookings/available`: whether the booking could be made now, and what it would
   * cost, by the same reads and rules as a create; nothing is written. Ids that point at nothing are
   * the 400 a create gives; a booking the rules refuse is `Available: false` with their Message.
   */
  async available(dto: BookingDto, actor?: Principal): Promise<Availability> {
    await this.records.checkReferences(dto);
    const values = this.records.columnValues(dto);
    await this.records.authorizeBusiness(values, actor, this.records.db.outsideTransaction, dto);
    const target = this.target(values, null);
    const tooLong = lengthBoundRefusal(target.FromTime, target.ToTime);
    if (tooLong) throw refused(tooLong);
    const facts = await this.facts(target, 0);
    const refusal = bookingRefusal(facts);
    const charges = timesRefusal(target.FromTime, target.ToTime)
      ? null
      : await this.charges(target, facts, (question, amount) => this.uses.creditPlan(question, amount)).catch((error: unknown) => {
          if (error instanceof RecordValidationException) return null;
          throw error;
        });
    return {
      Available: refusal === null && charges !== null,
      Message: refusal?.message ?? (charges === null ? 'The price of this booking is more than an amount can hold.' : null),
      Price: fromUnits(charges?.price ?? 0n),
      CreditUsed: fromUnits(charges?.creditUsed ?? 0n),
      ChargeAmount: fromUnits(charges?.charge ?? 0n),
    };
  }

  /** A booking's business is its resource's (restricted administrators included). */
  async businessOf(values: Readonly<Record<string, unknown>>, tx: Tx, byScope: () => Promise<number | null>): Promise<number | null> {
    if (values.ResourceId !== undefined && values.ResourceId !== null) return this.bookings.resourceBusiness(values.ResourceId, tx);
    return byScope();
  }

  /** The reads the rules decide on (inside the write's transaction, after the resource's lock, for a write). */
  private async facts(target: BookingTarget, exceptId: number, tx?: Tx): Promise<BookingFacts> {
    const resource = await this.bookings.resource(target.ResourceId, tx);
    if (!resource) throw RecordValidationException.field('ResourceId', `Resource ${target.ResourceId} does not exist`, target.ResourceId);
    const customer = await this.bookings.customer(target.CoworkerId, tx);
    if (!customer) throw RecordValidationException.field('CoworkerId', `Coworker ${target.CoworkerId} does not exist`, target.CoworkerId);
    const timed = timesRefusal(target.FromTime, target.ToTime) === null;
    const member = resource.OnlyForMembers ? (await this.contracts.mainActive(customer.Id, target.FromTime, tx)) !== null : false;
    const overlapping = timed ? await this.bookings.overlapping(resource.Id, target.FromTime, target.ToTime, exceptId, tx) : [];
    return { resource, customer, member, from: target.FromTime, to: target.ToTime, overlapping };
  }

  /**
   * The price, and the credits that pay it: `pay` spends them (a write) or plans them (`available`).
   * Tentative: nothing charged yet. DoNotUseBookingCredit: all charged.
   */
  private async charges(
    target: BookingTarget,
    facts: BookingFacts,
    pay: (question: CreditQuestion, amount: bigint) => Promise<Spend[]>,
  ): Promise<Charges> {
    const price = bookingPrice(facts.resource.HourlyPrice, minutesBetween(target.FromTime, target.ToTime));
    if (price >= toUnits(MONEY_LIMIT)) {
      throw RecordValidationException.field(
        'ToTime',
        `This booking would cost ${unitsText(price)}, more than an amount can hold (below ${MONEY_LIMIT}).`,
        target.ToTime.toISOString(),
      );
    }
    if (target.Tentative) return { price, spends: [], creditUsed: 0n, charge: 0n };
    if (target.DoNotUseBookingCredit || price === 0n) return { price, spends: [], creditUsed: 0n, charge: price };
    const question: CreditQuestion = {
      coworkerId: target.CoworkerId,
      businessId: facts.resource.BusinessId,
      resourceTypeId: facts.resource.ResourceTypeId,
      at: target.FromTime,
    };
    const spends = await pay(question, price);
    const creditUsed = spent(spends);
    return { price, spends, creditUsed, charge: price - creditUsed };
  }

  private target(values: Readonly<Record<string, unknown>>, existing: WireRecord | null): BookingTarget {
    const pick = (name: string) => (values[name] !== undefined && values[name] !== null ? values[name] : existing?.[name]);
    const date = (name: string) => {
      const value = pick(name);
      return value instanceof Date ? value : new Date(String(value));
    };
    return {
      ResourceId: Number(pick('ResourceId')),
      CoworkerId: Number(pick('CoworkerId')),
      FromTime: date('FromTime'),
      ToTime: date('ToTime'),
      Tentative: values.Tentative !== undefined ? values.Tentative === true : existing?.Tentative === true,
      DoNotUseBookingCredit:
        values.DoNotUseBookingCredit !== undefined ? values.DoNotUseBookingCredit === true : existing?.DoNotUseBookingCredit === true,
    };
  }

  /** Whether the write changes the field from its stored value. */
  private changes(field: (typeof PRICED)[number], target: BookingTarget, existing: WireRecord): boolean {
    const value = target[field];
    if (value instanceof Date) return value.getTime() !== Date.parse(String(existing[field]));
    return value !== existing[field];
  }
}
