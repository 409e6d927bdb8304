import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Database } from '../../common/database.js';
import { Coworker } from '../coworkers/coworker.entity.js';
import { byCustomer, DueItemSources, inList, mapLazily, type BilledCustomer, type DueContext, type DueItem } from '../due-items/due-items.js';
import { Team } from '../teams/team.entity.js';
import { TEAM_MEMBERS } from '../teams/teams.definition.js';

// Team invoices (docs/billing.md, "Team invoices"; docs/api.md §13.3). Who is billed for an item is
// decided here, where a run gathers the items of one invoice customer, not by each source: a source
// only says which of its items stay with their customer (`DueItem.invoiceDirectly`), so every source,
// those other modules register included, is billed to the paying member alike.

/** A member whose items the paying member's invoice takes. */
interface PaidMember {
  id: number;
  fullName: string;
}

/**
 * SQL: the paying member that takes the items of the customer whose Id is `coworker` (an SQL expression),
 * or NULL when they are its own: the PayingMemberId of the lowest-Id team it belongs to that has a
 * paying member and CreateSingleInvoiceForTeam. That is the customer itself when it pays for that team.
 */
export function payingMemberSql(db: Database, coworker: string): string {
  const q = (name: string) => db.id(name);
  return `(SELECT pt.${q('PayingMemberId')} FROM ${db.tableOf(Team)} pt JOIN ${q(TEAM_MEMBERS.table)} pm ON pm.${q(TEAM_MEMBERS.on)} = pt.${q('Id')} ` +
    `WHERE pm.${q(TEAM_MEMBERS.column)} = ${coworker} AND pt.${q('PayingMemberId')} IS NOT NULL AND pt.${q('CreateSingleInvoiceForTeam')} = 1 ORDER BY pt.${q('Id')} LIMIT 1)`;
}

/** What every item source has due to one invoice customer, members' items of its teams included. */
@Injectable()
export class TeamInvoicing {
  constructor(private readonly db: Database, private readonly sources: DueItemSources) {}

  /**
   * What is due *to* the customer (docs/api.md §13.3): its own items, less those a paying member's invoice
   * takes, then, member by member (by Id), the items of the members it pays for that do not stay with
   * them, each line's Description starting with the member's FullName and ": ". `takeTurn` (a run, not a
   * preview) takes each such member's billing turn before its items are read, so a run naming the member
   * waits for this one and then reads what it left (docs/billing.md, "Exactly once").
   */
  async dueTo(context: Omit<DueContext, 'customerIds'> & { customer: BilledCustomer }, takeTurn?: (memberId: number) => Promise<unknown>): Promise<DueItem[]> {
    const { customer, until, manager } = context;
    const payer = await this.payingMemberOf(customer.id, manager);
    const members = await this.membersPaidBy(customer.id, manager);
    if (takeTurn) for (const member of members) await takeTurn(member.id);
    const paidByAnother = payer !== null && payer !== customer.id;
    const items = (await this.collect({ customerIds: [customer.id], until, manager })).filter((item) => !paidByAnother || item.invoiceDirectly);
    for (const member of members) {
      const prefix = `${member.fullName}: `;
      for (const item of await this.collect({ customerIds: [member.id], until, manager })) {
        if (item.invoiceDirectly) continue;
        items.push({ ...item, lines: mapLazily(item.lines, (line) => ({ ...line, description: prefix + line.description })) });
      }
    }
    return items;
  }

  /**
   * What is due to each of several customers none of which a team's invoice concerns (teamless), each
   * source asked once for all of them (docs/billing.md "Exactly once"): each customer's own items.
   */
  async dueToEach(context: DueContext): Promise<Map<number, DueItem[]>> {
    return byCustomer(await this.collect(context));
  }

  /**
   * Of these customers, those a team's invoice concerns: the paying member of a team with
   * CreateSingleInvoiceForTeam, or a member of one that has a paying member. A run bills them alone
   * (dueTo); the others need no look at teams (dueToEach).
   */
  async inTeamInvoices(ids: readonly number[], manager: EntityManager | undefined): Promise<Set<number>> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const invoicedAsTeam = `t.${q('PayingMemberId')} IS NOT NULL AND t.${q('CreateSingleInvoiceForTeam')} = 1`;
    const rows = await db.query(
      `SELECT t.${q('PayingMemberId')} AS c FROM ${db.tableOf(Team)} t WHERE t.${q('PayingMemberId')} ${inList(ids)} AND ${invoicedAsTeam} ` +
      `UNION SELECT m.${q(TEAM_MEMBERS.column)} AS c FROM ${db.tableOf(Team)} t JOIN ${q(TEAM_MEMBERS.table)} m ON m.${q(TEAM_MEMBERS.on)} = t.${q('Id')} ` +
      `WHERE m.${q(TEAM_MEMBERS.column)} ${inList(ids)} AND ${invoicedAsTeam}`,
      [...ids, ...ids], manager,
    );
    return new Set(rows.map((row) => Number(row.c)));
  }

  /** Every source's items of the context's customers, in the sources' order (each customer's, grouped: byCustomer). */
  private async collect(context: DueContext): Promise<DueItem[]> {
    const items: DueItem[] = [];
    for (const source of this.sources.all) items.push(...(await source.collect(context)));
    return items;
  }

  private async payingMemberOf(customerId: number, manager: EntityManager | undefined): Promise<number | null> {
    const [row] = await this.db.query(`SELECT ${payingMemberSql(this.db, '?')} AS p`, [customerId], manager);
    return row?.p === null || row?.p === undefined ? null : Number(row.p);
  }

  /**
   * The other customers whose items `payerId` takes: members of the teams it pays for whose lowest-Id
   * such team is one it pays for. At most 1,000 members a team (TeamMembers' bound).
   */
  private async membersPaidBy(payerId: number, manager: EntityManager | undefined): Promise<PaidMember[]> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    // From the teams it pays for (indexed by PayingMemberId): a customer that pays for none costs one lookup.
    const rows = await db.query(
      `SELECT DISTINCT w.${q('Id')} AS id, w.${q('FullName')} AS name FROM ${db.tableOf(Team)} t ` +
      `JOIN ${q(TEAM_MEMBERS.table)} m ON m.${q(TEAM_MEMBERS.on)} = t.${q('Id')} JOIN ${db.tableOf(Coworker)} w ON w.${q('Id')} = m.${q(TEAM_MEMBERS.column)} ` +
      `WHERE t.${q('PayingMemberId')} = ? AND t.${q('CreateSingleInvoiceForTeam')} = 1 AND w.${q('Id')} <> ? AND ${payingMemberSql(db, `w.${q('Id')}`)} = ? ORDER BY w.${q('Id')}`,
      [payerId, payerId, payerId], manager,
    );
    return rows.map((row) => ({ id: Number(row.id), fullName: String(row.name) }));
  }
}
