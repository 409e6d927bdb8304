import { Module } from '@nestjs/common';
import { defineRecord } from '../../common/record-definition.js';
import { recordModule } from '../../common/record.module.js';
import { Country } from './country.entity.js';

export const countries = defineRecord({
  name: 'Country',
  path: 'sys/countries',
  entity: Country,
  operations: ['list', 'get'],
  toStringText: (c) => String(c.Name),
});

@Module(recordModule(countries))
export class CountriesModule {}
