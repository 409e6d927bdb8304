import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { currencies } from './currencies.definition.js';

@Module(RecordModule.forType({ definition: currencies }))
export class CurrenciesModule {}
