import { Module } from '@nestjs/common';
import { defineRecord } from '../../common/record-definition.js';
import { recordModule } from '../../common/record.module.js';
import { Currency } from './currency.entity.js';

export const currencies = defineRecord({
  name: 'Currency',
  path: 'sys/currencies',
  entity: Currency,
  operations: ['list', 'get'],
  toStringText: (c) => `${c.Code} - ${c.Name}`,
});

@Module(recordModule(currencies))
export class CurrenciesModule {}
