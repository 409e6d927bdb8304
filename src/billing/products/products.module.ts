import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { products } from './products.definition.js';
import { ProductsRepository } from './products.repository.js';
import { ProductsRules } from './products.rules.js';
import { ProductsService } from './products.service.js';
import { productEvents } from './products.events.js';

@Module(
  RecordModule.forType({
    definition: products,
    events: productEvents,
    rules: ProductsRules,
    providers: [ProductsRepository, ProductsService],
    exports: [ProductsService],
  }),
)
export class ProductsModule {}
