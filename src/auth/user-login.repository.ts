import { Injectable } from '@nestjs/common';
import { Database } from '../persistence/database.js';
import { emailKey } from '../records/validation/fields.js';
import { parseDbDateTime } from '../records/wire-values.js';
import type { Tx } from '../persistence/tx.js';

/** A user as the login checks see it. */
export interface LoginUser {
  Id: number;
  Email: string;
  PasswordHash: string;
  Active: boolean;
  TwoFactorEnabled: boolean;
  TwoFactorSecret: string | null;
  SecurityStamp: number;
  LockedUntil: number | null;
  LastTotpStep: number | null;
}

/** What a request's authentication needs to know of its user, read at most every two seconds. */
export interface UserAccess {
  email: string;
  active: boolean;
  isAdmin: boolean;
  roles: string[];
  twoFactor: boolean;
  stamp: number;
  lockedUntil: number | null;
  coworkerId: number | null;
  /** The businesses linked to the user (user_business). */
  businessIds: number[];
  /** The user's refresh-token families revoked since the time asked for (revoked_token_family). */
  revokedFamilies: string[];
}

/**
 * The SQL of authentication on the `user` table. Hand-built statements: the access read runs for every
 * authenticated user every two seconds and the login read on every password check (hot paths), and
 * the counters change in single conditional UPDATEs so that parallel attempts all count.
 */
@Injectable()
export class UserLoginRepository {
  constructor(private readonly db: Database) {}

  private readonly q = (name: string) => this.db.id(name);

  async findByEmail(email: string): Promise<LoginUser | null> {
    const q = this.q;
    const [row] = await this.db.query(
      `SELECT ${['Id', 'Email', 'PasswordHash', 'Active', 'TwoFactorEnabled', 'TwoFactorSecret', 'SecurityStamp', 'LockedUntil', 'LastTotpStep'].map(q).join(', ')} FROM ${q('user')} WHERE ${q('EmailKey')} = ?`,
      [emailKey(email)],
    );
    if (!row) return null;
    return {
      Id: Number(row.Id),
      Email: String(row.Email),
      PasswordHash: String(row.PasswordHash),
      Active: Boolean(Number(row.Active)),
      TwoFactorEnabled: Boolean(Number(row.TwoFactorEnabled)),
      TwoFactorSecret: row.TwoFactorSecret === null ? null : String(row.TwoFactorSecret),
      SecurityStamp: Number(row.SecurityStamp),
      LockedUntil: parseDbDateTime(row.LockedUntil),
      LastTotpStep: row.LastTotpStep === null ? null : Number(row.LastTotpStep),
    };
  }

  async findAccess(userId: number, revokedSince: Date, tx?: Tx): Promise<UserAccess | null> {
    const q = this.q;
    const [row] = await this.db.query(
      `SELECT u.${q('Email')} AS email, u.${q('Active')} AS active, u.${q('IsAdmin')} AS isAdmin, u.${q('Roles')} AS roles, u.${q('TwoFactorEnabled')} AS twoFactor, ` +
        `u.${q('SecurityStamp')} AS stamp, u.${q('LockedUntil')} AS lockedUntil, u.${q('CoworkerId')} AS coworkerId, ` +
        `(SELECT GROUP_CONCAT(b.${q('BusinessId')}) FROM ${q('user_business')} b WHERE b.${q('UserId')} = u.${q('Id')}) AS businesses, ` +
        `(SELECT GROUP_CONCAT(f.${q('FamilyId')}) FROM ${q('revoked_token_family')} f WHERE f.${q('UserId')} = u.${q('Id')} AND f.${q('RevokedOn')} >= ?) AS revokedFamilies ` +
        `FROM ${q('user')} u WHERE u.${q('Id')} = ?`,
      [this.db.dateParam(revokedSince), userId],
      tx,
    );
    if (!row) return null;
    return {
      email: String(row.email),
      active: Boolean(Number(row.active)),
      isAdmin: Boolean(Number(row.isAdmin)),
      roles: row.roles ? JSON.parse(String(row.roles)) : [],
      twoFactor: Boolean(Number(row.twoFactor)),
      stamp: Number(row.stamp),
      lockedUntil: parseDbDateTime(row.lockedUntil),
      coworkerId: row.coworkerId === null ? null : Number(row.coworkerId),
      businessIds: row.businesses ? String(row.businesses).split(',').map(Number) : [],
      revokedFamilies: row.revokedFamilies ? String(row.revokedFamilies).split(',') : [],
    };
  }

  /** A successful login clears the failure count (no write when there is nothing to clear). */
  async resetFailedLogins(userId: number): Promise<void> {
    const q = this.q;
    await this.db.query(`UPDATE ${q('user')} SET ${q('FailedLoginCount')} = 0 WHERE ${q('Id')} = ? AND ${q('FailedLoginCount')} <> 0`, [
      userId,
    ]);
  }

  /** One more failure; the one that reaches `maxFailures` locks the account until `lockedUntil` and restarts the count. */
  async recordFailedLogin(userId: number, maxFailures: number, lockedUntil: Date): Promise<void> {
    const q = this.q;
    const until = this.db.dateParam(lockedUntil);
    // Both databases read the old FailedLoginCount in every expression here (LockedUntil is set first).
    await this.db.query(
      `UPDATE ${q('user')} SET ${q('LockedUntil')} = CASE WHEN ${q('FailedLoginCount')} + 1 >= ? THEN ? ELSE ${q('LockedUntil')} END, ` +
        `${q('FailedLoginCount')} = CASE WHEN ${q('FailedLoginCount')} + 1 >= ? THEN 0 ELSE ${q('FailedLoginCount')} + 1 END WHERE ${q('Id')} = ?`,
      [maxFailures, until, maxFailures, userId],
    );
  }

  /**
   * Records a code's time step as used, in one conditional statement: of parallel logins with the same
   * code (or with an earlier one), one wins, and no code is accepted a second time (RFC 6238 §5.2).
   */
  async claimTotpStep(userId: number, step: number): Promise<boolean> {
    const q = this.q;
    const result = await this.db.run(
      `UPDATE ${q('user')} SET ${q('LastTotpStep')} = ? WHERE ${q('Id')} = ? AND (${q('LastTotpStep')} IS NULL OR ${q('LastTotpStep')} < ?)`,
      [step, userId, step],
    );
    return result.affected === 1;
  }
}
