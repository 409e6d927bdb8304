import { IdList, Reference, Text } from '../../../common/validation/fields.js';
import { RecordDto } from '../../../common/validation/record.dto.js';
import { Business } from '../../../kernel/businesses/business.entity.js';
import { Coworker } from '../../coworkers/coworker.entity.js';

export class TeamDto extends RecordDto {
  @Reference(() => Business, { required: true }) BusinessId: number;
  @Text({ required: true }) Name: string;
  @Text({ long: true }) Description?: string | null;
  /** Ids of the team's members: customers of the team's business. */
  @IdList({ references: () => Coworker }) TeamMembers?: number[] | null;
}
