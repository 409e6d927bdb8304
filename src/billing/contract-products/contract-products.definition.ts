import { defineRecord } from '../../records/record-definition.js';
import { Coworker } from '../../customers/coworker.entity.js';
import { Product } from '../products/product.entity.js';
import { ContractProduct } from './contract-product.entity.js';
import { ContractProductDto } from './dto/contract-product.dto.js';

export const contractProducts = defineRecord({
  name: 'ContractProduct',
  path: 'billing/contractproducts',
  entity: ContractProduct,
  dto: ContractProductDto,
  business: { via: () => Coworker, on: 'CoworkerId' },
  hidden: ['InvoicedPeriod'],
  reads: {
    ProductName: { from: () => Product, on: 'ProductId', column: 'Name' },
    CoworkerFullName: { from: () => Coworker, on: 'CoworkerId', column: 'FullName' },
  },
  toStringText: (p) => `${p.Quantity} x ${p.ProductName} - ${p.CoworkerFullName}`,
});
