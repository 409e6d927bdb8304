import { defineRecord } from '../../records/record-definition.js';
import { Business } from '../businesses/business.entity.js';
import { TaxRateDto } from './dto/tax-rate.dto.js';
import { TaxRate } from './tax-rate.entity.js';

export const taxRates = defineRecord({
  name: 'TaxRate',
  path: 'sys/taxrates',
  entity: TaxRate,
  dto: TaxRateDto,
  business: { column: 'BusinessId' },
  reads: {
    BusinessName: { from: () => Business, on: 'BusinessId', column: 'Name' },
  },
  toStringText: (t) => `${t.Name} (${t.Rate}%)`,
});
