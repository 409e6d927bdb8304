import { Injectable } from '@nestjs/common';
import { Database } from '../../persistence/database.js';
import { emailKey } from '../../records/validation/fields.js';
import { lockCustomerBusiness } from '../customer-rows.repository.js';
import { User } from './user.entity.js';
import type { Tx } from '../../persistence/tx.js';

/**
 * The reads of users beyond the machinery's own (the locking reads hold their rows on MySQL; on SQLite
 * write transactions take turns anyway: docs/architecture.md).
 */
@Injectable()
export class UsersRepository {
  constructor(private readonly db: Database) {}

  /** Whether a user other than `exceptId` has this email (emails compare case-insensitively: EmailKey). */
  async emailTaken(email: string, exceptId: number | null, tx: Tx = this.db.outsideTransaction): Promise<boolean> {
    const { db } = this;
    const other = exceptId ? ` AND ${db.id('Id')} <> ?` : '';
    const found = await db.query(
      `SELECT 1 AS found FROM ${db.tableOf(User)} WHERE ${db.id('EmailKey')} = ?${other} LIMIT 1`,
      [emailKey(email), ...(exceptId ? [exceptId] : [])],
      tx,
    );
    return found.length > 0;
  }

  async hasTwoFactorSecret(id: number, tx: Tx): Promise<boolean> {
    const { db } = this;
    const [user] = await db.query<{ secret: string | null }>(
      `SELECT ${db.id('TwoFactorSecret')} AS secret FROM ${db.tableOf(User)} WHERE ${db.id('Id')} = ?`,
      [id],
      tx,
    );
    return Boolean(user?.secret);
  }

  /** The customer's business, its row locked until the transaction ends, so that two logins made for it at once take turns (customer-rows.repository.ts). */
  lockCustomerBusiness(coworkerId: number, tx: Tx): Promise<number | null> {
    return lockCustomerBusiness(this.db, coworkerId, tx);
  }

  /**
   * Whether the customer has a login (other than `exceptUserId`). With `lock`, a locking read on MySQL:
   * it sees logins committed while this transaction waited, where a plain read sees its snapshot.
   */
  async customerHasLogin(
    coworkerId: number,
    tx: Tx,
    { exceptUserId = null, lock = false }: { exceptUserId?: number | null; lock?: boolean } = {},
  ): Promise<boolean> {
    const { db } = this;
    const [login] = await db.query(
      `SELECT ${db.id('Id')} AS id FROM ${db.tableOf(User)} WHERE ${db.id('CoworkerId')} = ?${exceptUserId ? ` AND ${db.id('Id')} <> ?` : ''}${lock && db.isMySql ? ' FOR UPDATE' : ''}`,
      [coworkerId, ...(exceptUserId ? [exceptUserId] : [])],
      tx,
    );
    return Boolean(login);
  }

  /** The value that raises SecurityStamp by one within the UPDATE itself (no read before the write). */
  readonly bumpedSecurityStamp = (): string => `${this.db.id('SecurityStamp')} + 1`;
}
