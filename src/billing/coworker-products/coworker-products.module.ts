import { Module } from '@nestjs/common';
import { defineRecord } from '../../common/record-definition.js';
import { recordModule } from '../../common/record.module.js';
import { Coworker } from '../../spaces/coworkers/coworker.entity.js';
import { CoworkerBookingCreditsModule } from '../coworker-booking-credits/coworker-booking-credits.module.js';
import { CoworkerContractsModule } from '../coworker-contracts/coworker-contracts.module.js';
import { Product } from '../products/product.entity.js';
import { ProductsModule } from '../products/products.module.js';
import { CoworkerProduct } from './coworker-product.entity.js';
import { CoworkerProductsRepository } from './coworker-products.repository.js';
import { CoworkerProductsService } from './coworker-products.service.js';
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

@Module(recordModule(coworkerProducts, { service: CoworkerProductsService, providers: [CoworkerProductsRepository], imports: [ProductsModule, CoworkerBookingCreditsModule, CoworkerContractsModule] }))
export class CoworkerProductsModule {}
