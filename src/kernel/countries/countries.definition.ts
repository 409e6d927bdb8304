import { defineRecord } from '../../records/record-definition.js';
import { Country } from './country.entity.js';

export const countries = defineRecord({
  name: 'Country',
  path: 'sys/countries',
  entity: Country,
  operations: ['list', 'get'],
  toStringText: (c) => String(c.Name),
});
