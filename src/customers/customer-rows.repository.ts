import type { Database } from '../persistence/database.js';
import type { Tx } from '../persistence/tx.js';
import { Coworker } from './coworker.entity.js';

/** The business of a customer; null when it does not exist. */
export function customerBusiness(db: Database, coworkerId: unknown, tx?: Tx): Promise<number | null> {
  return businessOf(db, coworkerId, tx, '');
}

/**
 * The business of a customer, whose row stays locked until the transaction ends (MySQL): the one lock
 * that makes writes about one customer take turns (two logins made for it at once, the main-contract mark
 * of its contracts). Null when the customer does not exist.
 */
export function lockCustomerBusiness(db: Database, coworkerId: number, tx: Tx): Promise<number | null> {
  return businessOf(db, coworkerId, tx, db.isMySql ? ' FOR UPDATE' : '');
}

async function businessOf(db: Database, coworkerId: unknown, tx: Tx | undefined, lock: string): Promise<number | null> {
  const [customer] = await db.query<{ b: number | string }>(
    `SELECT ${db.id('BusinessId')} AS b FROM ${db.tableOf(Coworker)} WHERE ${db.id('Id')} = ?${lock}`,
    [coworkerId],
    tx,
  );
  return customer ? Number(customer.b) : null;
}
