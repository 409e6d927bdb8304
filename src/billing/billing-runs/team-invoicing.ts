import { Injectable } from '@nestjs/common';
import { Database } from '../../persistence/database.js';
import { byCustomer, DueItemSources, mapLazily, type BilledCustomer, type DueContext, type DueItem } from '../due-items/due-items.js';
import { BillingRunsRepository } from './billing-runs.repository.js';
import type { Tx } from '../../persistence/tx.js';

// Team invoices (docs/billing.md, "Team invoices"; docs/api.md §13.3). Who is billed for an item is
// decided here, where a run gathers the items of one invoice customer, not by each source: a source
// only says which of its items stay with their customer (`DueItem.invoiceDirectly`), so every source,
// those other modules register included, is billed to the paying member alike.

/** A member whose items the paying member's invoice takes. */
interface PaidMember {
  id: number;
  fullName: string;
}

/** What every item source has due to one invoice customer, members' items of its teams included. */
@Injectable()
export class TeamInvoicing {
  private readonly rows = new BillingRunsRepository(this.db);

  constructor(
    private readonly db: Database,
    private readonly sources: DueItemSources,
  ) {}

  /**
   * What is due *to* the customer (docs/api.md §13.3): its own items, less those a paying member's invoice
   * takes, then, member by member (by Id), the items of the members it pays for that do not stay with
   * them, each line's Description starting with the member's FullName and ": ". `takeTurn` (a run, not a
   * preview) takes each such member's billing turn before its items are read, so a run naming the member
   * waits for this one and then reads what it left (docs/billing.md, "Exactly once").
   */
  async dueTo(
    context: Omit<DueContext, 'customerIds'> & { customer: BilledCustomer },
    takeTurn?: (memberId: number) => Promise<unknown>,
  ): Promise<DueItem[]> {
    const { customer, until, tx } = context;
    const payer = await this.payingMemberOf(customer.id, tx);
    const members = await this.membersPaidBy(customer.id, tx);
    if (takeTurn) for (const member of members) await takeTurn(member.id);
    const paidByAnother = payer !== null && payer !== customer.id;
    const items = (await this.collect({ customerIds: [customer.id], until, tx })).filter((item) => !paidByAnother || item.invoiceDirectly);
    for (const member of members) {
      const prefix = `${member.fullName}: `;
      for (const item of await this.collect({ customerIds: [member.id], until, tx })) {
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
  inTeamInvoices(ids: readonly number[], tx: Tx | undefined): Promise<Set<number>> {
    return this.rows.inTeamInvoices(ids, tx);
  }

  /** Every source's items of the context's customers, in the sources' order (each customer's, grouped: byCustomer). */
  private async collect(context: DueContext): Promise<DueItem[]> {
    const items: DueItem[] = [];
    for (const source of this.sources.all) items.push(...(await source.collect(context)));
    return items;
  }

  private payingMemberOf(customerId: number, tx: Tx | undefined): Promise<number | null> {
    return this.rows.payingMemberOf(customerId, tx);
  }

  private membersPaidBy(payerId: number, tx: Tx | undefined): Promise<PaidMember[]> {
    return this.rows.membersPaidBy(payerId, tx);
  }
}
