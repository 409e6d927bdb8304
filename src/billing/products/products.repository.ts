import { Injectable } from '@nestjs/common';
import { Database } from '../../persistence/database.js';
import type { SqlContext } from '../../records/record-definition.js';
import { MAX_ID } from '../../records/validation/fields.js';
import { Product } from './product.entity.js';
import type { Tx } from '../../persistence/tx.js';

/** SQL of the read-only field LowStock (docs/api.md §3.1): the stock is at or below the alert level. */
export const lowStockSql = (q: SqlContext): string =>
  `CASE WHEN ${q.alias}.${q.id('StockAlertLevel')} IS NOT NULL AND ${q.alias}.${q.id('CurrentStock')} <= ${q.alias}.${q.id('StockAlertLevel')} THEN 1 ELSE 0 END`;

/**
 * The stock SQL of products: the stock is taken by one conditional UPDATE (docs/api.md §3.1 "Sales"),
 * whose changed rows say whether it did (Database.run).
 */
@Injectable()
export class ProductsRepository {
  constructor(private readonly db: Database) {}

  /**
   * Takes `quantity` (> 0) from the product's stock inside the sale's transaction, so concurrent sales
   * never oversell. A product without TrackStock keeps its stock; without AllowNegativeStock the stock
   * may not drop below zero. False when nothing was taken: not enough stock, or no such product.
   */
  async takeStock(productId: number, quantity: number, tx: Tx): Promise<boolean> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    // On Galera two nodes' sales could take stock from one row version: the turn keeps one (Database.runGuarded).
    return db.runGuarded(
      // A sale's stock change is an update of the product: its version (ETag) moves too. The stock left
      // must also fit its 32-bit column, negative stock allowed or not.
      `UPDATE ${db.tableOf(Product)} SET ${q('CurrentStock')} = CASE WHEN ${q('TrackStock')} = 1 THEN ${q('CurrentStock')} - ? ELSE ${q('CurrentStock')} END, ${q('Version')} = ${q('Version')} + 1 ` +
        `WHERE ${q('Id')} = ? AND (${q('TrackStock')} = 0 OR ((${q('AllowNegativeStock')} = 1 OR ${q('CurrentStock')} >= ?) AND ${q('CurrentStock')} - ? >= ?))`,
      [quantity, productId, quantity, quantity, -MAX_ID],
      tx,
      { entity: Product, id: productId },
    );
  }

  /**
   * Claims the low-stock alert for a sale that just took `quantity` (docs/stock-and-deliveries.md): one
   * conditional UPDATE, in the sale's transaction, after `takeStock` locked the row, that sets
   * LowStockAlertedOn only when this sale took the stock from above StockAlertLevel to at or below it
   * and the alert is armed. Whether this sale claimed it: of parallel sales, exactly one can.
   */
  async claimLowStockAlert(productId: number, quantity: number, at: Date, tx: Tx): Promise<boolean> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const [stock, level] = [q('CurrentStock'), q('StockAlertLevel')];
    const result = await db.run(
      `UPDATE ${db.tableOf(Product)} SET ${q('LowStockAlertedOn')} = ? ` +
        `WHERE ${q('Id')} = ? AND ${q('TrackStock')} = 1 AND ${q('LowStockAlertedOn')} IS NULL AND ${level} IS NOT NULL AND ${stock} <= ${level} AND ${stock} + ? > ${level}`,
      [db.dateParam(at), productId, quantity],
      tx,
    );
    return result.affected === 1;
  }

  /**
   * Re-arms the alert after a change of the product (a PUT) that left its stock above the level, or
   * left it no level: LowStockAlertedOn cleared, in the change's transaction, on the row as it now is.
   */
  async rearmLowStockAlert(productId: number, tx: Tx): Promise<void> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    await db.run(
      `UPDATE ${db.tableOf(Product)} SET ${q('LowStockAlertedOn')} = NULL ` +
        `WHERE ${q('Id')} = ? AND ${q('LowStockAlertedOn')} IS NOT NULL AND (${q('StockAlertLevel')} IS NULL OR ${q('CurrentStock')} > ${q('StockAlertLevel')})`,
      [productId],
      tx,
    );
  }
}
