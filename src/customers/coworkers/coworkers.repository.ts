import { Injectable } from '@nestjs/common';
import { Database } from '../../persistence/database.js';
import type { SqlContext } from '../../records/record-definition.js';
import { User } from '../users/user.entity.js';
import { Team } from '../teams/team.entity.js';
import { TEAM_MEMBERS } from '../teams/teams.definition.js';
import { customerPlanSql } from './customer-plans.js';
import type { Tx } from '../../persistence/tx.js';

/** SQL: the ids of the join-table or contract rows a customer has, as a JSON array (NULL or [] when none). */
function idsOf(q: SqlContext, table: string, idColumn: string, where: string): string {
  return `(SELECT ${q.jsonArrayAgg}(x.${q.id(idColumn)}) FROM ${table} x WHERE x.${q.id('CoworkerId')} = ${q.alias}.${q.id('Id')}${where})`;
}

/** SQL of the customer's read-only fields, computed by the database within the record's read. */
export const coworkerReadSql = {
  // The tariff of the customer's main active contract (the primary one, else the first started).
  TariffId: (q: SqlContext) => customerPlanSql().mainActive(q, `${q.alias}.${q.id('Id')}`, q.now, 'TariffId'),
  TariffName: (q: SqlContext) => customerPlanSql().mainActive(q, `${q.alias}.${q.id('Id')}`, q.now, 'TariffName'),
  UserId: (q: SqlContext) => `(SELECT u.${q.id('Id')} FROM ${q.table(User)} u WHERE u.${q.id('CoworkerId')} = ${q.alias}.${q.id('Id')})`,
  Teams: (q: SqlContext) => idsOf(q, q.id(TEAM_MEMBERS.table), TEAM_MEMBERS.on, ''),
  CoworkerContractIds: (q: SqlContext) => {
    const plans = customerPlanSql();
    return idsOf(q, plans.table(q), 'Id', ` AND ${plans.active(q, 'x', q.now)}`);
  },
};

/** The writes of customers beyond the machinery's own. */
@Injectable()
export class CoworkersRepository {
  constructor(private readonly db: Database) {}

  /**
   * Takes the customer out of the teams of every business but `businessId`; a team it paid for has no
   * paying member from then on (docs/billing.md, "Team invoices").
   */
  async leaveTeamsOutside(coworkerId: number, businessId: number, tx: Tx): Promise<void> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    await db.query(
      `UPDATE ${db.tableOf(Team)} SET ${q('PayingMemberId')} = NULL, ${q('Version')} = ${q('Version')} + 1, ${q('UpdatedOn')} = ? WHERE ${q('PayingMemberId')} = ? AND ${q('BusinessId')} <> ?`,
      [db.dateParam(new Date()), coworkerId, businessId],
      tx,
    );
    await db.query(
      `DELETE FROM ${db.id(TEAM_MEMBERS.table)} WHERE ${db.id(TEAM_MEMBERS.column)} = ? AND ${db.id(TEAM_MEMBERS.on)} IN ` +
        `(SELECT ${db.id('Id')} FROM ${db.tableOf(Team)} WHERE ${db.id('BusinessId')} <> ?)`,
      [coworkerId, businessId],
      tx,
    );
  }
}
