import { defineRecord } from '../../records/record-definition.js';
import { Business } from '../../kernel/businesses/business.entity.js';
import { Currency } from '../../kernel/currencies/currency.entity.js';
import { TariffDto } from './dto/tariff.dto.js';
import { Tariff } from './tariff.entity.js';

export const tariffs = defineRecord({
  name: 'Tariff',
  path: 'billing/tariffs',
  entity: Tariff,
  dto: TariffDto,
  business: { column: 'BusinessId' },
  reads: {
    BusinessName: { from: () => Business, on: 'BusinessId', column: 'Name' },
    CurrencyCode: { from: () => Currency, on: 'CurrencyId', column: 'Code' },
  },
  toStringText: (t) => String(t.Name),
});
