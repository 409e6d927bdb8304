import { defineRecord } from '../../records/record-definition.js';
import { Business } from '../../kernel/businesses/business.entity.js';
import { ResourceTypeDto } from './dto/resource-type.dto.js';
import { ResourceType } from './resource-type.entity.js';

export const resourceTypes = defineRecord({
  name: 'ResourceType',
  path: 'spaces/resourcetypes',
  entity: ResourceType,
  dto: ResourceTypeDto,
  business: { column: 'BusinessId' },
  reads: {
    BusinessName: { from: () => Business, on: 'BusinessId', column: 'Name' },
  },
  toStringText: (t) => String(t.Name),
});
