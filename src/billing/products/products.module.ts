import { Module } from '@nestjs/common';
import { RecordModule } from '../../common/record.module.js';
import { products } from './products.definition.js';
import { ProductsRepository } from './products.repository.js';
import { ProductsService } from './products.service.js';
import { productEvents } from './products.events.js';

@Module(RecordModule.forType({ definition: products, events: productEvents, providers: [ProductsRepository, ProductsService], exports: [ProductsService] }))
export class ProductsModule {}
