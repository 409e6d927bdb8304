import { defineRecord } from '../../records/record-definition.js';
import { Business } from '../../kernel/businesses/business.entity.js';
import { Currency } from '../../kernel/currencies/currency.entity.js';
import { ProductDto } from './dto/product.dto.js';
import { Product } from './product.entity.js';
import { lowStockSql } from './products.repository.js';

/** The file name at the end of an image URL (`https://cdn/x/desk.png?v=2` → `desk.png`). */
export function imageFileName(url: unknown): string | null {
  if (typeof url !== 'string' || !url.trim()) return null;
  const path = url.trim().split(/[?#]/)[0];
  const name = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(name) || null;
  } catch {
    return name || null;
  }
}

export const products = defineRecord({
  name: 'Product',
  path: 'billing/products',
  // A type of the source document: required fields stay required on update (docs/api.md §1.2).
  requiredOnUpdate: true,
  entity: Product,
  dto: ProductDto,
  business: { column: 'BusinessId' },
  lists: {
    Tariffs: { table: 'product_tariff', on: 'ProductId', column: 'TariffId' },
  },
  reads: {
    BusinessName: { from: () => Business, on: 'BusinessId', column: 'Name' },
    CurrencyCode: { from: () => Currency, on: 'CurrencyId', column: 'Code' },
    LowStock: { kind: 'bool', nullable: false, sql: lowStockSql },
  },
  computed: {
    // This service keeps no image files: the image is the one at NewImageUrl, unless cleared.
    ImageFileName: (p) => (p.ClearImageFile ? null : imageFileName(p.NewImageUrl)),
  },
  computedTypes: { ImageFileName: { kind: 'text', description: 'Read-only: the file name at the end of NewImageUrl, null when cleared.' } },
  toStringText: (p) => String(p.Name),
});
