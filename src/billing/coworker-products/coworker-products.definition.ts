import { defineRecord } from '../../records/record-definition.js';
import { Coworker } from '../../customers/coworker.entity.js';
import { Product } from '../products/product.entity.js';
import { CoworkerProduct } from './coworker-product.entity.js';
import { CoworkerProductDto } from './dto/coworker-product.dto.js';

export const coworkerProducts = defineRecord({
  name: 'CoworkerProduct',
  path: 'billing/coworkerproducts',
  entity: CoworkerProduct,
  dto: CoworkerProductDto,
  business: { via: () => Coworker, on: 'CoworkerId' },
  hidden: ['InvoicedPeriod'],
  reads: {
    ProductName: { from: () => Product, on: 'ProductId', column: 'Name' },
    CoworkerFullName: { from: () => Coworker, on: 'CoworkerId', column: 'FullName' },
  },
  toStringText: (s) => `${s.Quantity} x ${s.ProductName} - ${s.CoworkerFullName}`,
});
