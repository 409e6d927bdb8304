import { defineRecord } from '../../records/record-definition.js';
import { Business } from '../../kernel/businesses/business.entity.js';
import { Coworker } from '../coworker.entity.js';
import { TeamDto } from './dto/team.dto.js';
import { Team } from './team.entity.js';

/** The join table of teams and their members (also read by Coworker.Teams). */
export const TEAM_MEMBERS = { table: 'team_member', on: 'TeamId', column: 'CoworkerId' } as const;

export const teams = defineRecord({
  name: 'Team',
  path: 'spaces/teams',
  entity: Team,
  dto: TeamDto,
  business: { column: 'BusinessId' },
  reads: {
    BusinessName: { from: () => Business, on: 'BusinessId', column: 'Name' },
    PayingMemberFullName: { from: () => Coworker, on: 'PayingMemberId', column: 'FullName' },
  },
  lists: {
    TeamMembers: TEAM_MEMBERS,
  },
  toStringText: (t) => String(t.Name),
});
