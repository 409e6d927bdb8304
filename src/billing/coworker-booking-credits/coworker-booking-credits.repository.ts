import { Injectable } from '@nestjs/common';
import { Database } from '../../persistence/database.js';
import { toWire } from '../../records/wire-values.js';
import { customerBusiness } from '../../customers/customer-rows.repository.js';
import { ProductBookingCredit } from '../product-booking-credits/product-booking-credit.entity.js';
import { CoworkerBookingCredit } from './coworker-booking-credit.entity.js';
import type { ExpiryRule } from './credit-rules.js';
import type { Tx } from '../../persistence/tx.js';

/** A product's booking credit as a sale releases it. */
export interface ProductCredit extends ExpiryRule {
  Name: string;
  /** The amount per unit sold, as the driver gives the decimal (text on MySQL): multiplied exactly. */
  Credit: number | string;
  ElegibleResourceTypes: number[];
  ElegibleProducts: number[];
  ElegibleTariffs: number[];
  CaneBeUsedForBookings: boolean;
  CaneBeUsedForEvents: boolean;
  EventCategories: number[];
  IsUniversalCredit: boolean;
  ElegiblePasses: number[];
  AppliesToCharges: boolean;
}

const INTS = ['ExpirationType', 'ExpiresIn', 'ExpireTimeInMonths', 'ExpireTimeInWeeks'] as const;
const ID_LISTS = ['ElegibleResourceTypes', 'ElegibleProducts', 'ElegibleTariffs', 'EventCategories', 'ElegiblePasses'] as const;
const FLAGS = ['CaneBeUsedForBookings', 'CaneBeUsedForEvents', 'IsUniversalCredit', 'AppliesToCharges'] as const;

/**
 * The SQL of booking credits beyond the machinery's own, run inside the sale's transaction. Hand-built:
 * every sale runs it (docs/api.md §3.1 "Booking credits").
 */
@Injectable()
export class CoworkerBookingCreditsRepository {
  constructor(private readonly db: Database) {}

  /** The booking credits a sale of the product releases, in the order they were defined. */
  async creditsOfProduct(productId: number, tx: Tx): Promise<ProductCredit[]> {
    const { db } = this;
    const columns = ['Name', 'Credit', ...INTS, ...ID_LISTS, ...FLAGS].map((name) => db.id(name)).join(', ');
    const rows = await db.query(
      `SELECT ${columns} FROM ${db.tableOf(ProductBookingCredit)} WHERE ${db.id('ProductId')} = ? ORDER BY ${db.id('Id')}`,
      [productId],
      tx,
    );
    return rows.map((row) => {
      const credit: Record<string, unknown> = { Name: String(row.Name), Credit: row.Credit };
      for (const name of INTS) credit[name] = row[name] === null || row[name] === undefined ? null : Number(row[name]);
      for (const name of ID_LISTS) credit[name] = toWire('idList', row[name]);
      for (const name of FLAGS) credit[name] = toWire('bool', row[name]);
      return credit as unknown as ProductCredit;
    });
  }

  /** Writes the credits a sale released, in one INSERT (the entity's column transformers apply). */
  async insertReleased(credits: ReadonlyArray<Record<string, unknown>>, tx: Tx): Promise<void> {
    await this.db.insertEntities(CoworkerBookingCredit, credits, tx);
  }

  /** The ids of the credits a sale released (only those still unused with `unused`), in order. */
  async idsOfSale(saleUniqueId: string, unused: boolean, tx: Tx): Promise<number[]> {
    const { db } = this;
    const condition = unused ? ` AND ${db.id('RemainingCredit')} >= ${db.id('TotalCredit')}` : '';
    const rows = await db.query<{ id: number | string }>(
      `SELECT ${db.id('Id')} AS id FROM ${db.tableOf(CoworkerBookingCredit)} WHERE ${db.id('CoworkerProductUniqueId')} = ?${condition} ORDER BY ${db.id('Id')}`,
      [saleUniqueId],
      tx,
    );
    return rows.map((row) => Number(row.id));
  }

  /**
   * Removes the unused credits of a sale with one conditional DELETE and returns how many are left:
   * any credit left was used (even by a transaction that committed meanwhile).
   */
  async removeUnusedOfSale(saleUniqueId: string, tx: Tx): Promise<number> {
    const { db } = this;
    const table = db.tableOf(CoworkerBookingCredit);
    const sale = db.id('CoworkerProductUniqueId');
    await db.query(`DELETE FROM ${table} WHERE ${sale} = ? AND ${db.id('RemainingCredit')} >= ${db.id('TotalCredit')}`, [saleUniqueId], tx);
    const [left] = await db.query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${table} WHERE ${sale} = ?`, [saleUniqueId], tx);
    return Number(left.n);
  }

  /** The business of a customer; null when there is no such customer. */
  customerBusiness(coworkerId: unknown, tx?: Tx): Promise<number | null> {
    if (coworkerId === undefined || coworkerId === null) return Promise.resolve(null);
    return customerBusiness(this.db, coworkerId, tx);
  }

  /**
   * The list condition of the credits of a customer that can still pay at `at`: a balance left and not
   * expired. On the record table aliased `r`, as the machinery's list reads it.
   */
  applicableCondition(coworkerId: number, at: Date): { sql: string; parameters: unknown[] } {
    const r = (name: string) => `r.${this.db.id(name)}`;
    return {
      sql: `${r('CoworkerId')} = ? AND ${r('RemainingCredit')} > 0 AND (${r('ExpireDate')} IS NULL OR ${r('ExpireDate')} > ?)`,
      parameters: [coworkerId, this.db.dateParam(at)],
    };
  }
}
