import { defineRecord } from '../../records/record-definition.js';
import { Country } from '../countries/country.entity.js';
import { Currency } from '../currencies/currency.entity.js';
import { Business } from './business.entity.js';
import { BusinessDto } from './dto/business.dto.js';

export const businesses = defineRecord({
  name: 'Business',
  path: 'sys/businesses',
  entity: Business,
  dto: BusinessDto,
  business: { column: 'Id' },
  reads: {
    CurrencyCode: { from: () => Currency, on: 'CurrencyId', column: 'Code' },
    CountryName: { from: () => Country, on: 'CountryId', column: 'Name' },
  },
  toStringText: (b) => String(b.Name),
});
