import { defineRecord } from '../../records/record-definition.js';
import { Currency } from './currency.entity.js';

export const currencies = defineRecord({
  name: 'Currency',
  path: 'sys/currencies',
  entity: Currency,
  operations: ['list', 'get'],
  toStringText: (c) => `${c.Code} - ${c.Name}`,
});
