import { Injectable } from '@nestjs/common';
import { Database } from '../../persistence/database.js';
import { Coworker } from '../coworker.entity.js';
import type { Tx } from '../../persistence/tx.js';

/** The reads of teams beyond the machinery's own. */
@Injectable()
export class TeamsRepository {
  constructor(private readonly db: Database) {}

  /** Which of the customers `ids` belong to the business, read inside the team's transaction. */
  async customersOfBusiness(businessId: number, ids: readonly number[], tx: Tx): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const { db } = this;
    const customers = await db.query<{ id: number | string }>(
      `SELECT ${db.id('Id')} AS id FROM ${db.tableOf(Coworker)} WHERE ${db.id('BusinessId')} = ? AND ${db.id('Id')} IN (${ids.map(() => '?').join(', ')})`,
      [businessId, ...ids],
      tx,
    );
    return new Set(customers.map((customer) => Number(customer.id)));
  }
}
