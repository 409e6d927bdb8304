import { randomUUID } from 'node:crypto';
import { Injectable, UnauthorizedException } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ListEnvelope } from '../../common/envelopes.js';
import { RecordNotFoundException, RecordValidationException } from '../../common/errors.js';
import type { Principal } from '../../common/principal.js';
import type { WireRecord } from '../../common/record-definition.js';
import { RecordService, type SaveContext } from '../../common/record.service.js';
import { LAST_YEAR, MONEY_LIMIT } from '../../common/validation/fields.js';
import { formatDateTime, toWire } from '../../common/wire-values.js';
import { Coworker } from '../../spaces/coworkers/coworker.entity.js';
import { ProductBookingCredit } from '../product-booking-credits/product-booking-credit.entity.js';
import { parseApplicableQuery } from './applicable-query.js';
import { CoworkerBookingCredit } from './coworker-booking-credit.entity.js';
import { creditApplies, expiryDate, nextRenewal, releasedAmount, type Eligibility, type PlanTerm } from './credit-rules.js';

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
 * Customers' booking credits: release on a sale (docs/api.md §3.1), the applicable-credits query, and
 * the rules of a credit written by hand (its business is its customer's; amounts are never empty).
 */
@Injectable()
export class CoworkerBookingCreditsService extends RecordService<CoworkerBookingCredit> {
  /**
   * Inside the sale's transaction: each ProductBookingCredit of the product becomes a credit on the
   * customer's account, Credit × Quantity, valid from the sale date, expiring by its rule. Returns
   * how many were released. A failure here fails the sale: the machinery rolls everything back.
   */
  async release(manager: EntityManager, sale: ReleasingSale, actor?: Principal): Promise<number> {
    const q = (name: string) => this.db.id(name);
    const credits = await this.db.query(`SELECT * FROM ${this.db.tableOf(ProductBookingCredit)} WHERE ${q('ProductId')} = ? ORDER BY ${q('Id')}`, [sale.ProductId], manager);
    if (!credits.length) return 0;
    const validFrom = wholeSecond(sale.SaleDate);
    const renewal = nextRenewal(sale.plan, validFrom);
    const now = new Date();
    const int = (value: unknown) => (value === null || value === undefined ? null : Number(value));
    const list = (value: unknown) => toWire('idList', value) as number[];
    const flag = (value: unknown) => toWire('bool', value) as boolean;
    const rows = credits.map((credit) => {
      const amount = releasedAmount(credit.Credit as number | string, sale.Quantity);
      // What a sale releases must fit the credit columns as any written amount and date must.
      if (Math.abs(Number(amount)) >= MONEY_LIMIT) {
        throw RecordValidationException.field('Quantity', `${sale.Quantity} × the credit "${String(credit.Name)}" (${Number(credit.Credit)}) is more credit than a booking credit holds (below ${MONEY_LIMIT}).`, sale.Quantity);
      }
      const rule = { ExpirationType: int(credit.ExpirationType), ExpiresIn: int(credit.ExpiresIn), ExpireTimeInMonths: int(credit.ExpireTimeInMonths), ExpireTimeInWeeks: int(credit.ExpireTimeInWeeks) };
      const expiry = expiryDate(rule, validFrom, renewal);
      if (expiry && !(expiry.getUTCFullYear() <= LAST_YEAR)) {
        throw RecordValidationException.field('SaleDate', `The credit "${String(credit.Name)}" released by this sale would expire after the year ${LAST_YEAR}.`, formatDateTime(validFrom));
      }
      return {
        UniqueId: randomUUID(), CreatedOn: now, UpdatedOn: now, UpdatedBy: sale.by, IsNew: true,
        CoworkerId: sale.CoworkerId,
        BusinessId: sale.BusinessId,
        Description: credit.Name,
        TotalCredit: amount,
        RemainingCredit: amount,
        ValidFrom: validFrom,
        ExpireDate: expiry,
        ElegibleResourceTypes: list(credit.ElegibleResourceTypes),
        ElegibleProducts: list(credit.ElegibleProducts),
        ElegibleTariffs: list(credit.ElegibleTariffs),
        CaneBeUsedForBookings: flag(credit.CaneBeUsedForBookings),
        CaneBeUsedForEvents: flag(credit.CaneBeUsedForEvents),
        EventCategories: list(credit.EventCategories),
        IsUniversalCredit: flag(credit.IsUniversalCredit),
        ElegiblePasses: list(credit.ElegiblePasses),
        AppliesToCharges: flag(credit.AppliesToCharges),
        CoworkerProductUniqueId: sale.UniqueId,
      };
    });
    await manager.createQueryBuilder().insert().into(CoworkerBookingCredit).values(rows as never).updateEntity(false).execute();
    for (const id of await this.idsOfSale(manager, sale.UniqueId)) await this.recordChange(manager, actor, 'Create', id, null);
    return rows.length;
  }

  /** The credits a sale released (only those still unused with `unused`), as GET shows them. */
  async ofSale(manager: EntityManager, saleUniqueId: string, unused = false): Promise<WireRecord[]> {
    const ids = await this.idsOfSale(manager, saleUniqueId, unused);
    return Promise.all(ids.map((id) => this.get(id, undefined, manager)));
  }

  private async idsOfSale(manager: EntityManager, saleUniqueId: string, unused = false): Promise<number[]> {
    const q = (name: string) => this.db.id(name);
    const condition = unused ? ` AND ${q('RemainingCredit')} >= ${q('TotalCredit')}` : '';
    const rows = await this.db.query(`SELECT ${q('Id')} AS id FROM ${this.db.tableOf(CoworkerBookingCredit)} WHERE ${q('CoworkerProductUniqueId')} = ?${condition} ORDER BY ${q('Id')}`, [saleUniqueId], manager);
    return rows.map((row) => Number(row.id));
  }

  /**
   * The customer's unexpired credits with a balance that can pay for the use (docs/api.md §3.1), as a
   * list envelope (paging, filters and order as any list; the actor's businesses only). Unknown
   * customer: 404; a customer outside a restricted administrator's businesses: 401.
   */
  async applicable(query: Record<string, unknown>, actor?: Principal): Promise<ListEnvelope<WireRecord>> {
    const { coworkerId, use } = parseApplicableQuery(query);
    const business = await this.customerBusiness(coworkerId);
    if (business === null) throw new RecordNotFoundException();
    if (actor && actor.businessIds !== null && !actor.businessIds.includes(business)) throw new UnauthorizedException();
    const r = (name: string) => `r.${this.db.id(name)}`;
    return this.listNarrowed(query, actor, {
      sql: `${r('CoworkerId')} = ? AND ${r('RemainingCredit')} > 0 AND (${r('ExpireDate')} IS NULL OR ${r('ExpireDate')} > ?)`,
      parameters: [coworkerId, this.db.dateParam(new Date())],
    }, (credit) => creditApplies(credit as unknown as Eligibility, use));
  }

  /** A credit without a BusinessId belongs to its customer's business (restricted administrators included). */
  protected override async businessOf(values: Record<string, unknown>, manager: EntityManager): Promise<number | null> {
    if (values.BusinessId === undefined || values.BusinessId === null) return this.customerBusiness(values.CoworkerId, manager);
    return super.businessOf(values, manager);
  }

  protected override async beforeSave({ manager, values, existing }: SaveContext): Promise<void> {
    const coworkerId = values.CoworkerId ?? existing?.CoworkerId;
    const business = await this.customerBusiness(coworkerId, manager);
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
  }

  private async customerBusiness(coworkerId: unknown, manager?: EntityManager): Promise<number | null> {
    if (coworkerId === undefined || coworkerId === null) return null;
    const [row] = await this.db.query(`SELECT ${this.db.id('BusinessId')} AS b FROM ${this.db.tableOf(Coworker)} WHERE ${this.db.id('Id')} = ?`, [coworkerId], manager);
    return row ? Number(row.b) : null;
  }
}
