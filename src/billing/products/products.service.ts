import { Inject, Injectable } from '@nestjs/common';
import { ProductsRepository } from './products.repository.js';
import type { Tx } from '../../persistence/tx.js';

/**
 * Product stock: sales take it atomically, and the one that crosses the alert level claims the alert. (The stock counter is never null: clearing it gives the
 * column's default, 0, as for any column that cannot be null.)
 */
@Injectable()
export class ProductsService {
  @Inject(ProductsRepository) private readonly productsRepository: ProductsRepository;

  /**
   * For a sale, inside its transaction: takes `quantity` (> 0) from the product's stock with one
   * conditional write (ProductsRepository.takeStock). Returns false when the sale must be refused for
   * want of stock (or the product does not exist).
   */
  takeStock(tx: Tx, productId: number, quantity: number): Promise<boolean> {
    return this.productsRepository.takeStock(productId, quantity, tx);
  }

  /** For a sale that took stock, right after `takeStock`: whether it crossed the alert level and fires the alert (ProductsRepository.claimLowStockAlert). */
  claimLowStockAlert(tx: Tx, productId: number, quantity: number, at: Date): Promise<boolean> {
    return this.productsRepository.claimLowStockAlert(productId, quantity, at, tx);
  }
}
