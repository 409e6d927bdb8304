import { defineRecord } from '../../records/record-definition.js';
import { Product } from '../products/product.entity.js';
import { ProductBookingCreditDto } from './dto/product-booking-credit.dto.js';
import { ProductBookingCredit } from './product-booking-credit.entity.js';
import { productBusinessCurrencyCodeSql } from './product-booking-credits.repository.js';

export const productBookingCredits = defineRecord({
  name: 'ProductBookingCredit',
  path: 'billing/productbookingcredits',
  // A type of the source document: required fields stay required on update (docs/api.md §1.2).
  requiredOnUpdate: true,
  entity: ProductBookingCredit,
  dto: ProductBookingCreditDto,
  business: { via: () => Product, on: 'ProductId' },
  reads: {
    ProductName: { from: () => Product, on: 'ProductId', column: 'Name' },
    // The currency of the product's business (product → business → currency).
    ProductBusinessCurrencyCode: { kind: 'text', sql: productBusinessCurrencyCodeSql },
  },
  toStringText: (c) => String(c.Name),
});
