import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { contractProducts } from './contract-products.definition.js';
import { ContractProductsRules } from './contract-products.rules.js';
import { ContractProductsRepository } from './contract-products.repository.js';

@Module(RecordModule.forType({ definition: contractProducts, rules: ContractProductsRules, providers: [ContractProductsRepository] }))
export class ContractProductsModule {}
