import { Injectable } from '@nestjs/common';
import { RecordValidationException } from '../../common/errors.js';
import { RecordService, type SaveContext } from '../../common/record.service.js';
import { Coworker } from '../coworkers/coworker.entity.js';
import type { TeamDto } from './dto/team.dto.js';
import type { Team } from './team.entity.js';

/** Teams: every member must be a customer of the team's business (400 naming TeamMembers). */
@Injectable()
export class TeamsService extends RecordService<Team> {
  protected override async beforeSave(context: SaveContext): Promise<void> {
    const dto = context.dto as unknown as TeamDto;
    const businessId = Number(context.values.BusinessId ?? context.existing?.BusinessId);
    // Moving a team to another business re-checks the members it keeps.
    const members = dto.TeamMembers !== undefined ? (dto.TeamMembers ?? []) : ((context.existing?.TeamMembers as number[] | undefined) ?? []);
    if (!members.length) return;
    const ids = [...new Set(members)];
    const rows = await this.db.query(
      `SELECT ${this.db.id('Id')} AS id FROM ${this.db.tableOf(Coworker)} WHERE ${this.db.id('BusinessId')} = ? AND ${this.db.id('Id')} IN (${ids.map(() => '?').join(', ')})`,
      [businessId, ...ids],
      context.manager,
    );
    const inBusiness = new Set(rows.map((row) => Number(row.id)));
    const outside = ids.filter((id) => !inBusiness.has(id));
    if (outside.length) {
      throw RecordValidationException.field('TeamMembers', `Coworker ${outside.join(', ')} ${outside.length === 1 ? 'is not a customer' : 'are not customers'} of Business ${businessId}, the team's business.`, dto.TeamMembers ?? members);
    }
  }
}
