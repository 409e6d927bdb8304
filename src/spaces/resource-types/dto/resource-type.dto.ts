import { Reference, Text } from '../../../records/validation/fields.js';
import { RecordDto } from '../../../records/validation/record.dto.js';
import { Business } from '../../../kernel/businesses/business.entity.js';

export class ResourceTypeDto extends RecordDto {
  @Reference(() => Business, { required: true }) BusinessId: number;
  @Text({ required: true }) Name: string;
}
