import { Reference, Text } from '../../../common/validation/fields.js';
import { RecordDto } from '../../../common/validation/record.dto.js';
import { Business } from '../../../kernel/businesses/business.entity.js';

export class ResourceTypeDto extends RecordDto {
  @Reference(() => Business, { required: true }) BusinessId: number;
  @Text({ required: true }) Name: string;
}
