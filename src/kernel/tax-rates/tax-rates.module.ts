import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { taxRates } from './tax-rates.definition.js';
import { TaxRatesRules } from './tax-rates.rules.js';
import { TaxRatesRepository } from './tax-rates.repository.js';

@Module(RecordModule.forType({ definition: taxRates, rules: TaxRatesRules, providers: [TaxRatesRepository] }))
export class TaxRatesModule {}
