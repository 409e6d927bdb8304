import { Module } from '@nestjs/common';
import { defineRecord } from '../../common/record-definition.js';
import { recordModule } from '../../common/record.module.js';
import { Business } from '../../sys/businesses/business.entity.js';
import { Currency } from '../../sys/currencies/currency.entity.js';
import { Product } from '../products/product.entity.js';
import { ProductBookingCreditDto } from './dto/product-booking-credit.dto.js';
import { ProductBookingCredit } from './product-booking-credit.entity.js';

export const productBookingCredits = defineRecord({
  name: 'ProductBookingCredit',
  path: 'billing/productbookingcredits',
  entity: ProductBookingCredit,
  dto: ProductBookingCreditDto,
  business: { via: () => Product, on: 'ProductId' },
  reads: {
    ProductName: { from: () => Product, on: 'ProductId', column: 'Name' },
    // The currency of the product's business (product → business → currency).
    ProductBusinessCurrencyCode: {
      kind: 'text',
      sql: (q) =>
        `(SELECT c.${q.id('Code')} FROM ${q.table(Product)} p JOIN ${q.table(Business)} b ON b.${q.id('Id')} = p.${q.id('BusinessId')} ` +
        `JOIN ${q.table(Currency)} c ON c.${q.id('Id')} = b.${q.id('CurrencyId')} WHERE p.${q.id('Id')} = ${q.alias}.${q.id('ProductId')})`,
    },
  },
  toStringText: (c) => String(c.Name),
});

@Module(recordModule(productBookingCredits))
export class ProductBookingCreditsModule {}
