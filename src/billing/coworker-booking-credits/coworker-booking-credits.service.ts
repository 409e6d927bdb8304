import { Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import type { ListEnvelope } from '../../records/envelopes.js';
import { RecordNotFoundException, RecordValidationException } from '../../records/errors.js';
import type { Principal } from '../../platform/principal.js';
import type { WireRecord } from '../../records/record-definition.js';
import { InjectRecords } from '../../records/record.module.js';
import type { RecordService } from '../../records/record.service.js';
import { LAST_YEAR, MONEY_LIMIT } from '../../records/validation/fields.js';
import { formatDateTime } from '../../records/wire-values.js';
import { parseApplicableQuery } from './applicable-query.js';
import { coworkerBookingCredits } from './coworker-booking-credits.definition.js';
import { CoworkerBookingCreditsRepository } from './coworker-booking-credits.repository.js';
import { creditApplies, expiryDate, nextRenewal, releasedAmount, type Eligibility, type PlanTerm } from './credit-rules.js';
import { createStamp } from '../../records/audit-stamp.js';
import type { Tx } from '../../persistence/tx.js';

/** A sale whose product's credits are released, as the sale's transaction knows it. */
export interface ReleasingSale {
  UniqueId: string;
  CoworkerId: number;
  ProductId: number;
  /** The product's business: the released credits belong to it (docs/api.md §3.1 "Defaults"). */
  BusinessId: number;
  Quantity: number;
  SaleDate: Date;
  /** The customer's main active contract: PricePlan credits expire at its next renewal (none: never). */
  plan: PlanTerm | null;
  /** Who made the sale (UpdatedBy of the credits). */
  by: string | null;
}

/** A date-time to the whole second, as both databases' datetime columns keep it. */
export const wholeSecond = (date: Date) => new Date(Math.floor(date.getTime() / 1000) * 1000);

/**
 * Customers' booking credits: release on a sale (docs/api.md §3.1) and the applicable-credits query.
 * The rules of a credit written by hand are CoworkerBookingCreditsRules.
 */
@Injectable()
export class CoworkerBookingCreditsService {
  @InjectRecords(coworkerBookingCredits) private readonly records: RecordService;
  @Inject(CoworkerBookingCreditsRepository) private readonly creditsRepository: CoworkerBookingCreditsRepository;

  /**
   * Inside the sale's transaction: each ProductBookingCredit of the product becomes a credit on the
   * customer's account, Credit × Quantity, valid from the sale date, expiring by its rule. Returns
   * how many were released. A failure here fails the sale: the machinery rolls everything back.
   */
  async release(tx: Tx, sale: ReleasingSale, actor?: Principal): Promise<number> {
    const credits = await this.creditsRepository.creditsOfProduct(sale.ProductId, tx);
    if (!credits.length) return 0;
    const validFrom = wholeSecond(sale.SaleDate);
    const renewal = nextRenewal(sale.plan, validFrom);
    const now = new Date();
    const rows = credits.map((credit) => {
      const amount = releasedAmount(credit.Credit, sale.Quantity);
      // What a sale releases must fit the credit columns as any written amount and date must.
      if (Math.abs(Number(amount)) >= MONEY_LIMIT) {
        throw RecordValidationException.field(
          'Quantity',
          `${sale.Quantity} × the credit "${credit.Name}" (${Number(credit.Credit)}) is more credit than a booking credit holds (below ${MONEY_LIMIT}).`,
          sale.Quantity,
        );
      }
      const expiry = expiryDate(credit, validFrom, renewal);
      if (expiry && !(expiry.getUTCFullYear() <= LAST_YEAR)) {
        throw RecordValidationException.field(
          'SaleDate',
          `The credit "${credit.Name}" released by this sale would expire after the year ${LAST_YEAR}.`,
          formatDateTime(validFrom),
        );
      }
      return {
        ...createStamp(sale.by, now),
        CoworkerId: sale.CoworkerId,
        BusinessId: sale.BusinessId,
        Description: credit.Name,
        TotalCredit: amount,
        RemainingCredit: amount,
        ValidFrom: validFrom,
        ExpireDate: expiry,
        ElegibleResourceTypes: credit.ElegibleResourceTypes,
        ElegibleProducts: credit.ElegibleProducts,
        ElegibleTariffs: credit.ElegibleTariffs,
        CaneBeUsedForBookings: credit.CaneBeUsedForBookings,
        CaneBeUsedForEvents: credit.CaneBeUsedForEvents,
        EventCategories: credit.EventCategories,
        IsUniversalCredit: credit.IsUniversalCredit,
        ElegiblePasses: credit.ElegiblePasses,
        AppliesToCharges: credit.AppliesToCharges,
        CoworkerProductUniqueId: sale.UniqueId,
      };
    });
    await this.creditsRepository.insertReleased(rows, tx);
    for (const id of await this.creditsRepository.idsOfSale(sale.UniqueId, false, tx)) await this.records.recordCreated(tx, actor, id);
    return rows.length;
  }

  /** The credits a sale released (only those still unused with `unused`), as GET shows them. */
  async ofSale(tx: Tx, saleUniqueId: string, unused = false): Promise<WireRecord[]> {
    const ids = await this.creditsRepository.idsOfSale(saleUniqueId, unused, tx);
    return Promise.all(ids.map((id) => this.records.get(id, undefined, tx)));
  }

  /**
   * Removes the unused credits a sale released and returns how many are left, that is, used
   * (CoworkerBookingCreditsRepository.removeUnusedOfSale).
   */
  removeUnusedOfSale(tx: Tx, saleUniqueId: string): Promise<number> {
    return this.creditsRepository.removeUnusedOfSale(saleUniqueId, tx);
  }

  /**
   * The customer's unexpired credits with a balance that can pay for the use (docs/api.md §3.1), as a
   * list envelope (paging, filters and order as any list; the actor's businesses only). Unknown
   * customer: 404; a customer outside a restricted administrator's businesses: 401.
   */
  async applicable(query: Record<string, unknown>, actor?: Principal): Promise<ListEnvelope<WireRecord>> {
    const { coworkerId, use } = parseApplicableQuery(query);
    const business = await this.creditsRepository.customerBusiness(coworkerId);
    if (business === null) throw new RecordNotFoundException();
    if (actor && actor.businessIds !== null && !actor.businessIds.includes(business)) throw new UnauthorizedException();
    return this.records.listNarrowed(query, actor, this.creditsRepository.applicableCondition(coworkerId, new Date()), (credit) =>
      creditApplies(credit as unknown as Eligibility, use),
    );
  }
}
