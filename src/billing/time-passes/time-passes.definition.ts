import { defineRecord } from '../../records/record-definition.js';
import { Business } from '../../kernel/businesses/business.entity.js';
import { Currency } from '../../kernel/currencies/currency.entity.js';
import { TimePassDto } from './dto/time-pass.dto.js';
import { TimePass } from './time-pass.entity.js';

export const timePasses = defineRecord({
  name: 'TimePass',
  path: 'billing/timepasses',
  entity: TimePass,
  dto: TimePassDto,
  business: { column: 'BusinessId' },
  reads: {
    BusinessName: { from: () => Business, on: 'BusinessId', column: 'Name' },
    CurrencyCode: { from: () => Currency, on: 'CurrencyId', column: 'Code' },
  },
  toStringText: (t) => String(t.Name),
});
