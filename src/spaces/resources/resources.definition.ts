import { defineRecord } from '../../records/record-definition.js';
import { Currency } from '../../kernel/currencies/currency.entity.js';
import { ResourceType } from '../resource-types/resource-type.entity.js';
import { ResourceDto } from './dto/resource.dto.js';
import { Resource } from './resource.entity.js';

export const resources = defineRecord({
  name: 'Resource',
  path: 'spaces/resources',
  entity: Resource,
  dto: ResourceDto,
  business: { column: 'BusinessId' },
  reads: {
    ResourceTypeName: { from: () => ResourceType, on: 'ResourceTypeId', column: 'Name' },
    CurrencyCode: { from: () => Currency, on: 'CurrencyId', column: 'Code' },
  },
  hidden: ['BookingSequence'],
  toStringText: (r) => String(r.Name),
});
