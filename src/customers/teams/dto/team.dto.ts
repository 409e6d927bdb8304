import { Bool, IdList, Reference, Text } from '../../../records/validation/fields.js';
import { RecordDto } from '../../../records/validation/record.dto.js';
import { Business } from '../../../kernel/businesses/business.entity.js';
import { Coworker } from '../../coworker.entity.js';

export class TeamDto extends RecordDto {
  @Reference(() => Business, { required: true }) BusinessId: number;
  @Text({ required: true }) Name: string;
  @Text({ long: true }) Description?: string | null;
  /** Ids of the team's members: customers of the team's business. */
  @IdList({ references: () => Coworker }) TeamMembers?: number[] | null;
  /** The member whose invoice takes the other members' items (one of TeamMembers; null: none). */
  @Reference(() => Coworker) PayingMemberId?: number | null;
  /** Merged invoicing: with a PayingMemberId, the members' items go on its invoice (default false). */
  @Bool() CreateSingleInvoiceForTeam?: boolean | null;
}
