import { Inject, Injectable } from '@nestjs/common';
import { RecordValidationException } from '../../records/errors.js';
import type { TeamDto } from './dto/team.dto.js';
import { TeamsRepository } from './teams.repository.js';
import type { RecordRules, SaveContext } from '../../records/record-rules.js';

/**
 * Teams: every member must be a customer of the team's business (400 naming TeamMembers), and the paying
 * member one of the members the team has after the write (400 naming PayingMemberId), so an update that
 * takes the paying member out of the team must name another one or null (docs/billing.md, "Team invoices").
 */
@Injectable()
export class TeamsRules implements RecordRules<TeamDto> {
  @Inject(TeamsRepository) private readonly teamsRepository: TeamsRepository;

  async beforeSave(context: SaveContext<TeamDto>): Promise<void> {
    const { dto, existing } = context;
    const businessId = Number(context.values.BusinessId ?? existing?.BusinessId);
    // Moving a team to another business re-checks the members it keeps.
    const members = dto.TeamMembers !== undefined ? (dto.TeamMembers ?? []) : ((existing?.TeamMembers as number[] | undefined) ?? []);
    const payer = context.values.PayingMemberId !== undefined ? context.values.PayingMemberId : existing?.PayingMemberId;
    if (payer !== null && payer !== undefined && !members.includes(Number(payer))) {
      throw RecordValidationException.field(
        'PayingMemberId',
        `Coworker ${payer} is not one of the team's TeamMembers: the paying member must be a member (or null).`,
        payer,
      );
    }
    if (!members.length) return;
    const ids = [...new Set(members)];
    const inBusiness = await this.teamsRepository.customersOfBusiness(businessId, ids, context.tx);
    const outside = ids.filter((id) => !inBusiness.has(id));
    if (outside.length) {
      throw RecordValidationException.field(
        'TeamMembers',
        `Coworker ${outside.join(', ')} ${outside.length === 1 ? 'is not a customer' : 'are not customers'} of Business ${businessId}, the team's business.`,
        dto.TeamMembers ?? members,
      );
    }
  }
}
