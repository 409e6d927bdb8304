import { hash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { JwtService } from '@nestjs/jwt';
import { verify as verifyTotp } from 'otplib';
import type { EntityManager } from 'typeorm';
import { Database } from '../common/database.js';
import type { Principal } from '../common/principal.js';
import { emailKey } from '../common/validation/fields.js';
import { parseDbDateTime } from '../common/wire-values.js';
import type { AppConfig } from '../config/configuration.js';
import { decoyHash, verifyPassword } from './passwords.js';
import { parseBasicCredentials } from './strategies.js';

/** How long an instance trusts what it read about a user; revocation reaches every instance within it. */
export const PRINCIPAL_CACHE_MS = 2000;
/** How long a verified Basic credential is remembered (it is also dropped when the user's stamp changes). */
const BASIC_CACHE_MS = 60_000;
export const MAX_FAILED_LOGINS = 10;
export const LOCKOUT_MS = 15 * 60_000;

interface UserState {
  principal: Principal;
  active: boolean;
  /** Two-factor users cannot use Basic: it carries no one-time code. */
  twoFactor: boolean;
  stamp: number;
  lockedUntil: number | null;
  expires: number;
}

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

export type LoginFailure = 'bad_credentials' | 'locked' | 'inactive' | 'two_factor';

export interface AccessTokenClaims {
  sub: string;
  ver: number;
}

/**
 * Who a request is: bearer tokens and Basic credentials checked against the user's current state,
 * which is re-read from the database at most every two seconds, so deactivation, a new password or
 * new roles stop existing tokens on every instance within that time (docs/api.md §2.2).
 */
@Injectable()
export class AuthService {
  private readonly users = new Map<number, UserState>();
  private readonly basicCredentials = new Map<string, { userId: number; stamp: number; expires: number }>();
  /** Salts the keys of remembered Basic credentials, so this instance's memory holds no password. */
  private readonly basicKeySalt = randomBytes(32).toString('base64');
  private readonly basicChecks = new Map<string, Promise<Principal | null>>();
  readonly accessTokenTtl: number;

  constructor(
    private readonly db: Database,
    private readonly jwt: JwtService,
    config: ConfigService<AppConfig, true>,
  ) {
    this.accessTokenTtl = config.get('ACCESS_TOKEN_TTL_SECONDS', { infer: true });
  }

  // ---- access tokens ----

  signAccessToken(userId: number, stamp: number, ttlSeconds = this.accessTokenTtl): string {
    const claims: AccessTokenClaims = { sub: String(userId), ver: stamp };
    return this.jwt.sign(claims, { expiresIn: ttlSeconds, algorithm: 'HS256' });
  }

  /** The user id of a valid, unexpired HS256 token signed with our secret, or null. */
  verifyAccessToken(token: string): AccessTokenClaims | null {
    try {
      const claims = this.jwt.verify<AccessTokenClaims & { exp?: number }>(token, { algorithms: ['HS256'] });
      if (!/^\d+$/.test(String(claims.sub)) || typeof claims.ver !== 'number' || typeof claims.exp !== 'number') return null;
      return claims;
    } catch {
      return null;
    }
  }

  /** The principal of a bearer token, or null when the token or its user is no longer good. */
  async authenticateBearer(token: string): Promise<Principal | null> {
    const claims = this.verifyAccessToken(token);
    if (!claims) return null;
    const state = await this.userState(Number(claims.sub));
    if (!state || !state.active || state.stamp !== claims.ver) return null;
    return state.principal;
  }

  // ---- Basic ----

  /**
   * The principal of Basic credentials (the base64 part of the header). A verified value is remembered
   * for a minute under a salted SHA-256 of it (one-shot: an HMAC object per request cost more than the
   * rest of the check), so Basic pays neither the parsing nor a password hash on every request; the
   * user's current state is still checked.
   */
  async authenticateBasic(encoded: string): Promise<Principal | null> {
    const key = hash('sha256', `${this.basicKeySalt}\u0000${encoded}`, 'base64url');
    const now = Date.now();
    const remembered = this.basicCredentials.get(key);
    if (remembered && remembered.expires > now) {
      const state = await this.userState(remembered.userId);
      if (state && state.active && !state.twoFactor && state.stamp === remembered.stamp && !(state.lockedUntil && state.lockedUntil > now)) return state.principal;
      this.basicCredentials.delete(key);
    }
    // Requests that arrive together with the same credentials share one password check: a burst of
    // them costs one scrypt (16 MiB and a pool thread each), and the same guess counts once.
    let check = this.basicChecks.get(key);
    if (!check) {
      check = this.checkBasic(key, encoded, now).finally(() => this.basicChecks.delete(key));
      this.basicChecks.set(key, check);
    }
    return check;
  }

  private async checkBasic(key: string, encoded: string, now: number): Promise<Principal | null> {
    const credentials = parseBasicCredentials(encoded);
    if (!credentials) return null;
    const result = await this.checkLogin(credentials.email, credentials.password);
    if ('failure' in result || result.user.TwoFactorEnabled) return null;
    this.rememberBasic(key, result.user.Id, result.user.SecurityStamp, now);
    const state = await this.userState(result.user.Id, true);
    return state?.principal ?? null;
  }

  private rememberBasic(key: string, userId: number, stamp: number, now: number): void {
    if (this.basicCredentials.size > 10_000) {
      for (const [k, v] of this.basicCredentials) if (v.expires <= now) this.basicCredentials.delete(k);
      if (this.basicCredentials.size > 10_000) this.basicCredentials.clear();
    }
    this.basicCredentials.set(key, { userId, stamp, expires: now + BASIC_CACHE_MS });
  }

  // ---- logins (password grant and Basic) ----

  /**
   * Checks an email and password (and the TOTP code when the user has two-factor on). Failures count
   * towards the lockout; ten in a row lock the account for fifteen minutes; a success resets the count.
   */
  async checkLogin(email: string, password: string, totp?: string, requireTotp = false): Promise<{ user: LoginUser } | { failure: LoginFailure }> {
    const user = await this.findLoginUser(email);
    if (!user) {
      await verifyPassword(password, await decoyHash()); // same time as a real check: emails are not probed
      return { failure: 'bad_credentials' };
    }
    const matches = await verifyPassword(password, user.PasswordHash);
    // A locked account takes as long to refuse as any other login: the time tells nothing either.
    if (user.LockedUntil && user.LockedUntil > Date.now()) return { failure: 'locked' };
    if (!matches) {
      await this.recordFailedLogin(user.Id);
      return { failure: 'bad_credentials' };
    }
    if (!user.Active) return { failure: 'inactive' };
    if (requireTotp && user.TwoFactorEnabled) {
      const step = totp && user.TwoFactorSecret && /^\d{6}$/.test(totp) ? await this.totpStep(user.TwoFactorSecret, totp, user.LastTotpStep) : null;
      if (step === null || !(await this.claimTotpStep(user.Id, step))) {
        await this.recordFailedLogin(user.Id);
        return { failure: 'two_factor' };
      }
    }
    await this.db.query(`UPDATE ${this.db.id('user')} SET ${this.db.id('FailedLoginCount')} = 0 WHERE ${this.db.id('Id')} = ? AND ${this.db.id('FailedLoginCount')} <> 0`, [user.Id]);
    return { user };
  }

  /** The time step a code matches (within 30 s either way), only if later than the last one accepted. */
  private async totpStep(secret: string, token: string, lastStep: number | null): Promise<number | null> {
    try {
      const result = await verifyTotp({ secret, token, epochTolerance: 30, ...(lastStep === null ? {} : { afterTimeStep: lastStep }) });
      return result.valid && 'timeStep' in result ? result.timeStep : null;
    } catch {
      return null;
    }
  }

  /**
   * Records a code's time step as used, in one conditional statement: of parallel logins with the same
   * code (or with an earlier one), one wins, and no code is accepted a second time (RFC 6238 §5.2).
   */
  private async claimTotpStep(userId: number, step: number): Promise<boolean> {
    const q = (n: string) => this.db.id(n);
    const result = await this.db.query(
      `UPDATE ${q('user')} SET ${q('LastTotpStep')} = ? WHERE ${q('Id')} = ? AND (${q('LastTotpStep')} IS NULL OR ${q('LastTotpStep')} < ?)`,
      [step, userId, step],
    );
    const outcome = result as unknown as { changes?: number; affectedRows?: number };
    return Number(outcome.changes ?? outcome.affectedRows) === 1;
  }

  /** One more failure, in a single statement so parallel attempts all count. */
  private async recordFailedLogin(userId: number): Promise<void> {
    const q = (n: string) => this.db.id(n);
    const lockedUntil = this.db.dateParam(new Date(Date.now() + LOCKOUT_MS));
    // Both databases read the old FailedLoginCount in every expression here (LockedUntil is set first).
    await this.db.query(
      `UPDATE ${q('user')} SET ${q('LockedUntil')} = CASE WHEN ${q('FailedLoginCount')} + 1 >= ? THEN ? ELSE ${q('LockedUntil')} END, ` +
        `${q('FailedLoginCount')} = CASE WHEN ${q('FailedLoginCount')} + 1 >= ? THEN 0 ELSE ${q('FailedLoginCount')} + 1 END WHERE ${q('Id')} = ?`,
      [MAX_FAILED_LOGINS, lockedUntil, MAX_FAILED_LOGINS, userId],
    );
    this.forget(userId);
  }

  private async findLoginUser(email: string): Promise<LoginUser | null> {
    const q = (n: string) => this.db.id(n);
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

  // ---- user state ----

  /** The user's current state, from the cache when it is younger than two seconds. */
  async userState(userId: number, fresh = false, manager?: EntityManager): Promise<UserState | null> {
    const now = Date.now();
    const cached = this.users.get(userId);
    if (!fresh && cached && cached.expires > now) return cached;
    const q = (n: string) => this.db.id(n);
    const [row] = await this.db.query(
      `SELECT u.${q('Id')} AS id, u.${q('Email')} AS email, u.${q('Active')} AS active, u.${q('IsAdmin')} AS isAdmin, u.${q('Roles')} AS roles, u.${q('TwoFactorEnabled')} AS twoFactor, ` +
        `u.${q('SecurityStamp')} AS stamp, u.${q('LockedUntil')} AS lockedUntil, u.${q('CoworkerId')} AS coworkerId, ` +
        `(SELECT GROUP_CONCAT(b.${q('BusinessId')}) FROM ${q('user_business')} b WHERE b.${q('UserId')} = u.${q('Id')}) AS businesses ` +
        `FROM ${q('user')} u WHERE u.${q('Id')} = ?`,
      [userId],
      manager,
    );
    if (!row) {
      this.users.delete(userId);
      return null;
    }
    const isAdmin = Boolean(Number(row.isAdmin));
    const roles: string[] = row.roles ? JSON.parse(String(row.roles)) : [];
    const state: UserState = {
      principal: {
        userId,
        email: String(row.email),
        isAdmin,
        roles: new Set(roles.map((role) => role.toLowerCase())),
        businessIds: isAdmin ? null : row.businesses ? String(row.businesses).split(',').map(Number) : [],
        coworkerId: row.coworkerId === null ? null : Number(row.coworkerId),
      },
      active: Boolean(Number(row.active)),
      twoFactor: Boolean(Number(row.twoFactor)),
      stamp: Number(row.stamp),
      lockedUntil: parseDbDateTime(row.lockedUntil),
      expires: now + PRINCIPAL_CACHE_MS,
    };
    if (this.users.size > 50_000) this.users.clear();
    this.users.set(userId, state);
    return state;
  }

  /** Drops what this instance remembers of a user (others re-read within two seconds). */
  forget(userId: number): void {
    this.users.delete(userId);
  }
}
