import { Module } from '@nestjs/common';
import { activeContractSql, mainActiveContractSql } from '../../billing/coworker-contracts/active-contracts.js';
import { CoworkerContract } from '../../billing/coworker-contracts/coworker-contract.entity.js';
import { CoworkerContractsModule } from '../../billing/coworker-contracts/coworker-contracts.module.js';
import { defineRecord, type SqlContext, type WireRecord } from '../../common/record-definition.js';
import { recordModule } from '../../common/record.module.js';
import { User } from '../../sys/users/user.entity.js';
import { UsersModule } from '../../sys/users/users.module.js';
import { TEAM_MEMBERS } from '../teams/teams.module.js';
import { Coworker } from './coworker.entity.js';
import { CoworkersService } from './coworkers.service.js';
import { CoworkerDto } from './dto/coworker.dto.js';

/** SQL: the ids of the join-table or contract rows a customer has, as a JSON array (NULL or [] when none). */
function idsOf(q: SqlContext, table: string, idColumn: string, where: string): string {
  return `(SELECT ${q.jsonArrayAgg}(x.${q.id(idColumn)}) FROM ${table} x WHERE x.${q.id('CoworkerId')} = ${q.alias}.${q.id('Id')}${where})`;
}

const sortedIds = (value: unknown) => [...(value as number[])].sort((a, b) => a - b);

/** FullName split at its last space: "Ada King Lovelace" is Ada King + Lovelace; one word is a first name. */
function guessedNames(fullName: unknown): [string, string] {
  const name = String(fullName ?? '').trim();
  const cut = name.lastIndexOf(' ');
  return cut < 0 ? [name, ''] : [name.slice(0, cut).trim(), name.slice(cut + 1)];
}

export const coworkers = defineRecord({
  name: 'Coworker',
  path: 'spaces/coworkers',
  entity: Coworker,
  dto: CoworkerDto,
  business: { column: 'BusinessId' },
  reads: {
    // The tariff of the customer's main active contract (the primary one, else the first started).
    TariffId: { kind: 'int', sql: (q) => mainActiveContractSql(q, `${q.alias}.${q.id('Id')}`, q.now, 'TariffId') },
    TariffName: { kind: 'text', sql: (q) => mainActiveContractSql(q, `${q.alias}.${q.id('Id')}`, q.now, 'TariffName') },
    UserId: { kind: 'int', sql: (q) => `(SELECT u.${q.id('Id')} FROM ${q.table(User)} u WHERE u.${q.id('CoworkerId')} = ${q.alias}.${q.id('Id')})` },
    Teams: { kind: 'idList', sql: (q) => idsOf(q, q.id(TEAM_MEMBERS.table), TEAM_MEMBERS.on, '') },
    CoworkerContractIds: { kind: 'idList', sql: (q) => idsOf(q, q.table(CoworkerContract), 'Id', ` AND ${activeContractSql(q, 'x', q.now)}`) },
  },
  computed: {
    Businesses: (c) => [c.BusinessId],
    GuessedFirstName: (c) => guessedNames(c.FullName)[0],
    GuessedLastName: (c) => guessedNames(c.FullName)[1],
    Teams: (c) => sortedIds(c.Teams),
    // Null, not [], when the customer has no active contract (as the platform answers).
    CoworkerContractIds: (c) => ((c.CoworkerContractIds as number[]).length ? sortedIds(c.CoworkerContractIds) : null),
    ActiveContract: (c: WireRecord) => c.CoworkerContractIds !== null,
  },
  toStringText: (c) => String(c.FullName),
});

@Module(recordModule(coworkers, { service: CoworkersService, imports: [UsersModule, CoworkerContractsModule] }))
export class CoworkersModule {}
