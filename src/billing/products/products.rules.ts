import { Inject, Injectable } from '@nestjs/common';
import type { RecordRules, SaveContext } from '../../records/record-rules.js';
import type { ProductDto } from './dto/product.dto.js';
import { ProductsRepository } from './products.repository.js';

/**
 * Products' rules (docs/stock-and-deliveries.md): an update that leaves the stock above StockAlertLevel
 * (a restock, a higher level) re-arms the low-stock alert. Decided by SQL on the row as written, so a
 * sale committed meanwhile is counted; an update that leaves the stock at or below fires nothing.
 */
@Injectable()
export class ProductsRules implements RecordRules<ProductDto> {
  @Inject(ProductsRepository) private readonly productsRepository: ProductsRepository;

  /** An update hook only, so product creates stay single inserts. */
  async afterUpdate(id: number, saved: SaveContext<ProductDto>): Promise<void> {
    await this.productsRepository.rearmLowStockAlert(id, saved.tx);
  }
}
