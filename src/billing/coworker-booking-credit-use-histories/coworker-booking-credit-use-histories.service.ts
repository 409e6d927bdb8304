import { Inject, Injectable } from '@nestjs/common';
import { unitsText, wholeCentsOf } from '../../kernel/money.js';
import type { Principal } from '../../platform/principal.js';
import { InjectRecords } from '../../records/record.module.js';
import type { RecordService } from '../../records/record.service.js';
import { coworkerBookingCredits } from '../coworker-booking-credits/coworker-booking-credits.definition.js';
import { coworkerBookingCreditUseHistories } from './coworker-booking-credit-use-histories.definition.js';
import { CreditSpendingRepository, type CreditQuestion, type CreditUse } from './credit-spending.repository.js';
import { planSpend, spendingOrder, type Spend, type SpendableCredit } from './spend-rules.js';
import type { Tx } from '../../persistence/tx.js';

/**
 * Booking credits spent and given back (docs/bookings.md "Credits"), inside the booking's transaction.
 * Each credit changed is an update of that credit (its version moves, its history records it); each
 * spend is a use-history record, marked Returned when given back. So Σ CreditUsed of a credit's
 * unreturned records = TotalCredit − RemainingCredit.
 */
@Injectable()
export class CoworkerBookingCreditUseHistoriesService {
  @InjectRecords(coworkerBookingCreditUseHistories) private readonly records: RecordService;
  @Inject(CreditSpendingRepository) private readonly spending: CreditSpendingRepository;
  @InjectRecords(coworkerBookingCredits) private readonly credits: RecordService;

  /** The spends that would pay up to `amount` now (nothing written): `available` and a create's first plan. */
  async creditPlan(question: CreditQuestion, amount: bigint, tx?: Tx): Promise<Spend[]> {
    if (amount <= 0n) return [];
    return planSpend(await this.spending.applicable(question, tx), amount);
  }

  /**
   * Takes up to `amount` from the customer's applicable credits, earliest expiry first: what
   * `creditPlan` plans when nothing else runs. Each spend is a conditional UPDATE; when another booking
   * took from a credit meanwhile (the UPDATE did not take), what is left of it is read again and spent
   * instead, and the next credits pay the rest. Returns the spends made; `recordUses` writes their
   * use-history records once the booking has its Id.
   */
  async take(tx: Tx, actor: Principal | undefined, question: CreditQuestion, amount: bigint): Promise<Spend[]> {
    const made: Spend[] = [];
    let left = amount;
    for (const credit of spendingOrder(await this.spending.applicable(question, tx))) {
      if (left <= 0n) break;
      const units = await this.takeFrom(tx, actor, credit, left);
      if (units > 0n) made.push({ Id: credit.Id, units });
      left -= units;
    }
    return made;
  }

  /**
   * Takes up to `wanted` from one credit, `credit.remaining` being what was read of it: one conditional
   * UPDATE; when another spend took from it meanwhile, what is left is read again and taken instead, so
   * it never goes below 0 (bookings and billing runs alike, docs/billing.md "Universal credits"). With
   * `inWholeCents` it takes whole cents only, as an invoice's credit line moves money. What it took.
   */
  async takeFrom(
    tx: Tx,
    actor: Principal | undefined,
    credit: Pick<SpendableCredit, 'Id' | 'remaining'>,
    wanted: bigint,
    inWholeCents = false,
  ): Promise<bigint> {
    const portion = (remaining: bigint) => {
      const units = remaining < wanted ? remaining : wanted;
      return inWholeCents ? wholeCentsOf(units) : units;
    };
    let units = portion(credit.remaining);
    while (units > 0n) {
      if (await this.credits.changeRecorded(tx, actor, credit.Id, () => this.spending.take(credit.Id, units, tx))) return units;
      units = portion(await this.spending.remaining(credit.Id, tx));
    }
    return 0n;
  }

  /** The use-history records of a booking's spends, or (`{ lineId }`) of the spends paying an invoice line. */
  async recordUses(
    tx: Tx,
    actor: Principal | undefined,
    spender: number | { lineId: number },
    coworkerId: number,
    spends: readonly Spend[],
  ): Promise<void> {
    const paid =
      typeof spender === 'number'
        ? { BookingId: spender, CoworkerInvoiceLineId: null }
        : { BookingId: null, CoworkerInvoiceLineId: spender.lineId };
    for (const spend of spends) {
      await this.records.createRecorded(tx, actor, {
        CoworkerBookingCreditId: spend.Id,
        ...paid,
        CreditUsed: unitsText(spend.units),
        Returned: false,
        CoworkerId: coworkerId,
      });
    }
  }

  /** Gives back every unreturned spend of a booking: RemainingCredit back, the record Returned. */
  async giveBack(tx: Tx, actor: Principal | undefined, bookingId: number): Promise<void> {
    await this.giveBackUses(tx, actor, await this.spending.unreturned(bookingId, tx));
  }

  /** Gives back the spends on a deleted invoice's lines (COWORKER_INVOICE_DELETE, docs/billing.md "Universal credits"). */
  async giveBackInvoice(tx: Tx, actor: Principal | undefined, invoiceId: number): Promise<void> {
    await this.giveBackUses(tx, actor, await this.spending.unreturnedOnInvoice(invoiceId, tx));
  }

  private async giveBackUses(tx: Tx, actor: Principal | undefined, uses: readonly CreditUse[]): Promise<void> {
    for (const use of uses) {
      await this.credits.changeRecorded(tx, actor, use.CoworkerBookingCreditId, () =>
        this.spending.giveBack(use.CoworkerBookingCreditId, use.units, tx),
      );
      await this.records.updateRecorded(tx, actor, use.Id, { Returned: true });
    }
  }
}
