import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { RecordService } from '../../common/record.service.js';
import { Product } from './product.entity.js';
import { MAX_ID } from '../../common/validation/fields.js';

/**
 * Product rules: sales take stock atomically. (The stock counter is never null: clearing it gives the
 * column's default, 0, as for any column that cannot be null.)
 */
@Injectable()
export class ProductsService extends RecordService<Product> {
  /**
   * For a sale, inside its transaction: takes `quantity` (> 0) from the product's stock with one
   * conditional UPDATE, so concurrent sales never oversell. A product without TrackStock keeps its
   * stock; without AllowNegativeStock the stock may not drop below zero. Returns false when the
   * sale must be refused for want of stock (or the product does not exist).
   */
  async takeStock(manager: EntityManager, productId: number, quantity: number): Promise<boolean> {
    const q = (name: string) => this.db.id(name);
    const result = await manager.createQueryBuilder().update(Product)
      // A sale's stock change is an update of the product: its version (ETag) moves too.
      .set({ CurrentStock: () => `CASE WHEN ${q('TrackStock')} = 1 THEN ${q('CurrentStock')} - :quantity ELSE ${q('CurrentStock')} END`, Version: () => `${q('Version')} + 1` })
      // The stock left must also fit its 32-bit column, negative stock allowed or not.
      .where(
        `${q('Id')} = :id AND (${q('TrackStock')} = 0 OR ((${q('AllowNegativeStock')} = 1 OR ${q('CurrentStock')} >= :quantity) AND ${q('CurrentStock')} - :quantity >= :lowest))`,
        { id: productId, quantity, lowest: -MAX_ID },
      )
      .updateEntity(false)
      .execute();
    return result.affected === 1;
  }
}
