import { Injectable } from '@nestjs/common';
import { Not, type EntityManager } from 'typeorm';
import { Database } from '../../persistence/database.js';
import { emailKey } from '../../records/validation/fields.js';
import { Coworker } from '../coworker.entity.js';
import { User } from './user.entity.js';

/**
 * The reads of users beyond the machinery's own. Plain reads use TypeORM's find (no hot path); the
 * locking reads are hand-built, as TypeORM refuses a pessimistic lock on SQLite, where write
 * transactions take turns anyway (docs/architecture.md).
 */
@Injectable()
export class UsersRepository {
  constructor(private readonly db: Database) {}

  /** Whether a user other than `exceptId` has this email (emails compare case-insensitively: EmailKey). */
  emailTaken(email: string, exceptId: number | null, manager: EntityManager = this.db.manager): Promise<boolean> {
    return manager.exists(User, { where: { EmailKey: emailKey(email), ...(exceptId ? { Id: Not(exceptId) } : {}) } });
  }

  async hasTwoFactorSecret(id: number, manager: EntityManager): Promise<boolean> {
    const user = await manager.findOne(User, { select: { Id: true, TwoFactorSecret: true }, where: { Id: id } });
    return Boolean(user?.TwoFactorSecret);
  }

  /**
   * The business of a customer, whose row stays locked until the transaction ends (MySQL), so that
   * two logins made for it at once take turns; null when it does not exist.
   */
  async lockCustomerBusiness(coworkerId: number, manager: EntityManager): Promise<number | null> {
    const { db } = this;
    const [customer] = await db.query<{ b: number | string }>(
      `SELECT ${db.id('BusinessId')} AS b FROM ${db.tableOf(Coworker)} WHERE ${db.id('Id')} = ?${db.isMySql ? ' FOR UPDATE' : ''}`,
      [coworkerId],
      manager,
    );
    return customer ? Number(customer.b) : null;
  }

  /**
   * Whether the customer has a login (other than `exceptUserId`). With `lock`, a locking read on MySQL:
   * it sees logins committed while this transaction waited, where a plain read sees its snapshot.
   */
  async customerHasLogin(
    coworkerId: number,
    manager: EntityManager,
    { exceptUserId = null, lock = false }: { exceptUserId?: number | null; lock?: boolean } = {},
  ): Promise<boolean> {
    const { db } = this;
    const [login] = await db.query(
      `SELECT ${db.id('Id')} AS id FROM ${db.tableOf(User)} WHERE ${db.id('CoworkerId')} = ?${exceptUserId ? ` AND ${db.id('Id')} <> ?` : ''}${lock && db.isMySql ? ' FOR UPDATE' : ''}`,
      [coworkerId, ...(exceptUserId ? [exceptUserId] : [])],
      manager,
    );
    return Boolean(login);
  }

  /** The value that raises SecurityStamp by one within the UPDATE itself (no read before the write). */
  readonly bumpedSecurityStamp = (): string => `${this.db.id('SecurityStamp')} + 1`;
}
