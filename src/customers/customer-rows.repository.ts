import type { Database } from '../persistence/database.js';
import type { Tx } from '../persistence/tx.js';
import { Coworker } from './coworker.entity.js';

/**
 * The business of a customer, whose row stays locked until the transaction ends (MySQL): the one lock
 * that makes writes about one customer take turns (two logins made for it at once, the main-contract mark
 * of its contracts). Null when the customer does not exist.
 */
export async function lockCustomerBusiness(db: Database, coworkerId: number, tx: Tx): Promise<number | null> {
  const [customer] = await db.query<{ b: number | string }>(
    `SELECT ${db.id('BusinessId')} AS b FROM ${db.tableOf(Coworker)} WHERE ${db.id('Id')} = ?${db.isMySql ? ' FOR UPDATE' : ''}`,
    [coworkerId],
    tx,
  );
  return customer ? Number(customer.b) : null;
}
