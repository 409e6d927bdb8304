import { Module } from '@nestjs/common';
import { RecordModule } from '../../common/record.module.js';
import { products } from './products.definition.js';
import { ProductsRepository } from './products.repository.js';
import { ProductsService } from './products.service.js';

@Module(RecordModule.forType({ definition: products, providers: [ProductsRepository, ProductsService], exports: [ProductsService] }))
export class ProductsModule {}
