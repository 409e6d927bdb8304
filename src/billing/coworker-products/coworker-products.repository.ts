import { Injectable } from '@nestjs/common';
import { Database } from '../../persistence/database.js';
import { toWire } from '../../records/wire-values.js';
import { Coworker } from '../../customers/coworker.entity.js';
import { Product, SystemProductType } from '../products/product.entity.js';
import { CoworkerProduct } from './coworker-product.entity.js';
import type { Tx } from '../../persistence/tx.js';

/** A product as a sale needs it. */
export interface ProductForSale {
  Name: string;
  BusinessId: number;
  /** The product's price as a wire amount. */
  Price: number;
  Archived: boolean;
  OnlyForMembers: boolean;
  OnlyForContacts: boolean;
  TrackStock: boolean;
  AllowNegativeStock: boolean;
  /** A sale of it makes a delivery for the customer (docs/stock-and-deliveries.md). */
  CreateDeliveryWhenPurchased: boolean;
  /** The TimePass whose passes a DayPass sale releases, TimePassQuantity per unit; null for other products. */
  dayPass: { TimePassId: number; TimePassQuantity: number } | null;
}

/** A customer as a sale needs it. */
export interface CustomerForSale {
  BusinessId: number;
  FullName: string;
}

const PRODUCT_FLAGS = [
  'Archived',
  'OnlyForMembers',
  'OnlyForContacts',
  'TrackStock',
  'AllowNegativeStock',
  'CreateDeliveryWhenPurchased',
] as const;

/**
 * The reads of a sale beyond the machinery's own, inside the sale's transaction. Hand-built: every sale
 * runs them, and Database.query keeps each statement prepared (docs/api.md §3.1 "Sales").
 */
@Injectable()
export class CoworkerProductsRepository {
  constructor(private readonly db: Database) {}

  async productForSale(productId: number, tx: Tx): Promise<ProductForSale | null> {
    const { db } = this;
    const columns = ['Name', 'BusinessId', 'Price', 'SystemProductType', 'TimePassId', 'TimePassQuantity', ...PRODUCT_FLAGS]
      .map((name) => db.id(name))
      .join(', ');
    const [row] = await db.query(`SELECT ${columns} FROM ${db.tableOf(Product)} WHERE ${db.id('Id')} = ?`, [productId], tx);
    if (!row) return null;
    const product: Record<string, unknown> = {
      Name: String(row.Name),
      BusinessId: Number(row.BusinessId),
      Price: toWire('money', row.Price),
    };
    for (const flag of PRODUCT_FLAGS) product[flag] = toWire('bool', row[flag]);
    const dayPass = Number(row.SystemProductType) === SystemProductType.DayPass && row.TimePassId !== null && row.TimePassId !== undefined;
    product.dayPass = dayPass ? { TimePassId: Number(row.TimePassId), TimePassQuantity: Number(row.TimePassQuantity ?? 1) } : null;
    return product as unknown as ProductForSale;
  }

  async customerForSale(coworkerId: number, tx: Tx): Promise<CustomerForSale | null> {
    const { db } = this;
    const [row] = await db.query(
      `SELECT ${db.id('BusinessId')} AS b, ${db.id('FullName')} AS n FROM ${db.tableOf(Coworker)} WHERE ${db.id('Id')} = ?`,
      [coworkerId],
      tx,
    );
    return row ? { BusinessId: Number(row.b), FullName: String(row.n) } : null;
  }

  /** The sale's InvoicedPeriod as stored (not on the wire); undefined when it does not exist. */
  async invoicedPeriod(id: number, tx: Tx): Promise<unknown> {
    const { db } = this;
    const [row] = await db.query(
      `SELECT ${db.id('InvoicedPeriod')} AS p FROM ${db.tableOf(CoworkerProduct)} WHERE ${db.id('Id')} = ?`,
      [id],
      tx,
    );
    return row?.p;
  }
}
