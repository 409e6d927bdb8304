import { createSecretKey, hash, randomBytes, type KeyObject } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { JwtService } from '@nestjs/jwt';
import { verify as verifyTotp } from 'otplib';
import type { Principal } from '../platform/principal.js';
import { jwtKeyId, type AppConfig } from '../config/configuration.js';
import { decoyHash, verifyPassword, type PasswordRequest } from './passwords.js';
import { FAMILY_REVOCATION_KEPT_MS } from './refresh-tokens.service.js';
import { UserLoginRepository, type LoginUser } from './user-login.repository.js';
import type { Tx } from '../persistence/tx.js';

export type { LoginUser } from './user-login.repository.js';

/** How long an instance trusts what it read about a user; revocation reaches every instance within it. */
export const PRINCIPAL_CACHE_MS = 2000;
/** How long before a cached user state expires it is read again in the background (userState). */
export const PRINCIPAL_REREAD_AHEAD_MS = 500;
/** How long a verified Basic credential is remembered (it is also dropped when the user's stamp changes). */
const BASIC_CACHE_MS = 60_000;
/** How many verified access tokens an instance keeps (a few hundred bytes each). */
const VERIFIED_TOKENS_KEPT = 10_000;
export const MAX_FAILED_LOGINS = 10;
export const LOCKOUT_MS = 15 * 60_000;

interface UserState {
  principal: Principal;
  active: boolean;
  /** Two-factor users cannot use Basic: it carries no one-time code. */
  twoFactor: boolean;
  stamp: number;
  lockedUntil: number | null;
  /** Refresh-token families revoked by a replay: access tokens that carry one are refused. */
  revokedFamilies: ReadonlySet<string>;
  expires: number;
}

/** A verified Basic credential: who it is, and the stamp it was verified under. */
export interface BasicLogin {
  principal: Principal;
  userId: number;
  stamp: number;
}

/** The claims of a token whose signature and expiry were checked (`exp`: seconds since the epoch). */
type VerifiedClaims = AccessTokenClaims & { exp: number };

/** A Basic credential verified within the last minute (kept under a salted hash of it, never itself). */
interface RememberedBasic {
  userId: number;
  stamp: number;
  expires: number;
}

/** Whom a valid token acts for while its user's state allows it: active, the same stamp, its family not revoked. */
function bearerPrincipal(claims: AccessTokenClaims, state: UserState | null): Principal | null {
  if (!state || !state.active || state.stamp !== claims.ver) return null;
  if (claims.fam !== undefined && state.revokedFamilies.has(claims.fam)) return null;
  return state.principal;
}

export type LoginFailure = 'bad_credentials' | 'locked' | 'inactive' | 'two_factor';

export interface AccessTokenClaims {
  sub: string;
  ver: number;
  /** The refresh-token family the token was minted from (docs/api.md §2.3); absent on other tokens. */
  fam?: string;
}

/**
 * Who a request is: bearer tokens and Basic credentials checked against the user's current state,
 * which is re-read from the database at most every two seconds, so deactivation, a new password or
 * new roles stop existing tokens on every instance within that time (docs/api.md §2.2), and so does
 * the revocation of a refresh-token family after a replay (§2.3) for the access tokens minted from it.
 */
@Injectable()
export class AuthService {
  private readonly states = new Map<number, UserState>();
  /** The reads of user states under way, shared by the requests that need them (userState). */
  private readonly stateReads = new Map<number, Promise<UserState | null>>();
  /** Counts forget() calls: a read that began before one caches nothing. */
  private forgotten = 0;
  private readonly basicCredentials = new Map<string, RememberedBasic>();
  /** Salts the keys of remembered Basic credentials, so this instance's memory holds no password. */
  private readonly basicKeySalt = randomBytes(32).toString('base64');
  readonly accessTokenTtl: number;
  /** The `kid` of the tokens this instance signs (a hash of JWT_SECRET). */
  readonly keyId: string;
  /** JWT_PREVIOUS_SECRETS by their key id: tokens they signed stay valid until they expire. */
  private readonly previousKeys = new Map<string, KeyObject>();

  constructor(
    private readonly users: UserLoginRepository,
    private readonly jwt: JwtService,
    config: ConfigService<AppConfig, true>,
  ) {
    this.accessTokenTtl = config.get('ACCESS_TOKEN_TTL_SECONDS', { infer: true });
    this.keyId = jwtKeyId(config.get('JWT_SECRET', { infer: true }));
    for (const secret of config.get('JWT_PREVIOUS_SECRETS', { infer: true }))
      this.previousKeys.set(jwtKeyId(secret), createSecretKey(Buffer.from(secret, 'utf8')));
  }

  // ---- access tokens ----

  signAccessToken(userId: number, stamp: number, ttlSeconds = this.accessTokenTtl, family?: string): string {
    const claims: AccessTokenClaims = { sub: String(userId), ver: stamp, ...(family ? { fam: family } : {}) };
    return this.jwt.sign(claims, { expiresIn: ttlSeconds, algorithm: 'HS256', keyid: this.keyId });
  }

  /**
   * The keys a token may be checked with, in order: JWT_SECRET's (undefined: the JwtModule's), or the
   * previous secret its `kid` names (docs/operations.md, "Secret rotation"). A token without a kid
   * (signed before kids existed) may have been signed with any of them; a kid that names none (a
   * removed secret) gets no key, so the token is refused.
   */
  private keysFor(token: string): Array<KeyObject | undefined> {
    // Without previous secrets only JWT_SECRET can verify, whatever the kid says.
    if (!this.previousKeys.size) return [undefined];
    let kid: unknown;
    try {
      kid = (JSON.parse(Buffer.from(token.slice(0, token.indexOf('.')), 'base64url').toString('utf8')) as { kid?: unknown }).kid;
    } catch {
      return [];
    }
    if (kid === this.keyId) return [undefined];
    if (kid === undefined) return [undefined, ...this.previousKeys.values()];
    const previous = typeof kid === 'string' ? this.previousKeys.get(kid) : undefined;
    return previous ? [previous] : [];
  }

  /** The user id of a valid, unexpired HS256 token signed with our secret (or a previous one), or null. */
  verifyAccessToken(token: string): AccessTokenClaims | null {
    const now = Date.now();
    const known = this.verifiedTokens.get(token);
    if (known) {
      if (known.expires > now) return known.claims;
      this.verifiedTokens.delete(token);
    }
    const claims = this.checkSignature(token);
    if (claims) this.rememberVerified(token, claims);
    return claims;
  }

  /**
   * Tokens whose signature was checked, with their claims, until they expire: a client sends the same
   * token on every request for its lifetime, and the HMAC, the base64 and the JSON of a check were about
   * a tenth of a read's CPU (docs/performance.md). Only what a signature check accepted is kept, under the
   * whole token text, so a token altered in any byte is a miss and is checked; the user's state (stamp,
   * activity, revoked families) is still read on every request (authenticateBearer). Bounded: the oldest
   * entries go first. A process that loses JWT_SECRET restarts, and the cache with it.
   */
  private readonly verifiedTokens = new Map<string, { claims: AccessTokenClaims; expires: number }>();

  private rememberVerified(token: string, claims: VerifiedClaims): void {
    if (this.verifiedTokens.size >= VERIFIED_TOKENS_KEPT) {
      // Insertion order is age order: drop the oldest tenth.
      let drop = Math.ceil(VERIFIED_TOKENS_KEPT / 10);
      for (const key of this.verifiedTokens.keys()) {
        this.verifiedTokens.delete(key);
        if (--drop === 0) break;
      }
    }
    this.verifiedTokens.set(token, { claims, expires: claims.exp * 1000 });
  }

  private checkSignature(token: string): VerifiedClaims | null {
    for (const key of this.keysFor(token)) {
      try {
        const claims = this.jwt.verify<VerifiedClaims>(
          token,
          key ? { algorithms: ['HS256'], secret: key as unknown as string } : { algorithms: ['HS256'] },
        );
        if (!/^\d+$/.test(String(claims.sub)) || typeof claims.ver !== 'number' || typeof claims.exp !== 'number') return null;
        if (claims.fam !== undefined && (typeof claims.fam !== 'string' || !/^[A-Za-z0-9_-]{1,32}$/.test(claims.fam))) return null;
        return claims;
      } catch {
        /* the next key, if any */
      }
    }
    return null;
  }

  /**
   * The principal of a bearer token, or null when the token or its user is no longer good. Answered at
   * once when the user's state is cached (nearly always), so a request's authentication takes no turn
   * of the event loop; a promise otherwise.
   */
  authenticateBearer(token: string): Principal | null | Promise<Principal | null> {
    const claims = this.verifyAccessToken(token);
    if (!claims) return null;
    return this.withUserState(Number(claims.sub), (state) => bearerPrincipal(claims, state));
  }

  // ---- Basic (the guard asks the cache first, and passport only on a miss: authentication.guard.ts) ----

  /**
   * The key a Basic credential (the header's base64 part) is remembered under: a salted SHA-256 of it
   * (one-shot: an HMAC object per request cost more than the rest of the check), so this instance's
   * memory holds no password.
   */
  basicKey(encoded: string): string {
    return hash('sha256', `${this.basicKeySalt}\u0000${encoded}`, 'base64url');
  }

  /**
   * The principal of a Basic credential verified within the last minute, while its user's current state
   * still allows it; null when it must be checked (again). Basic so pays neither the parsing nor a
   * password hash on every request.
   */
  rememberedBasic(key: string): Principal | null | Promise<Principal | null> {
    const remembered = this.basicCredentials.get(key);
    if (!remembered || remembered.expires <= Date.now()) return null;
    return this.withUserState(remembered.userId, (state) => this.rememberedPrincipal(key, remembered, state));
  }

  /** The principal of a remembered Basic credential while the user's state still allows it; else it is forgotten. */
  private rememberedPrincipal(key: string, remembered: RememberedBasic, state: UserState | null): Principal | null {
    if (
      state &&
      state.active &&
      !state.twoFactor &&
      state.stamp === remembered.stamp &&
      !(state.lockedUntil && state.lockedUntil > Date.now())
    )
      return state.principal;
    this.basicCredentials.delete(key);
    return null;
  }

  /** Checks Basic credentials: a login without a one-time code, so two-factor users are refused. */
  async verifyBasic(email: string, password: string, request?: PasswordRequest): Promise<BasicLogin | null> {
    const result = await this.checkLogin(email, password, undefined, false, request);
    if ('failure' in result || result.user.TwoFactorEnabled) return null;
    const state = await this.userState(result.user.Id, true);
    return state && { principal: state.principal, userId: result.user.Id, stamp: result.user.SecurityStamp };
  }

  /** Remembers a verified Basic credential for a minute (until the user's stamp changes). */
  rememberBasic(key: string, login: BasicLogin): void {
    const now = Date.now();
    if (this.basicCredentials.size > 10_000) {
      for (const [k, v] of this.basicCredentials) if (v.expires <= now) this.basicCredentials.delete(k);
      if (this.basicCredentials.size > 10_000) this.basicCredentials.clear();
    }
    this.basicCredentials.set(key, { userId: login.userId, stamp: login.stamp, expires: now + BASIC_CACHE_MS });
  }

  // ---- logins (password grant and Basic) ----

  /**
   * Checks an email and password (and the TOTP code when the user has two-factor on). Failures count
   * towards the lockout; ten in a row lock the account for fifteen minutes; a success resets the count.
   */
  async checkLogin(
    email: string,
    password: string,
    totp?: string,
    requireTotp = false,
    request?: PasswordRequest,
  ): Promise<{ user: LoginUser } | { failure: LoginFailure }> {
    const user = await this.users.findByEmail(email);
    if (!user) {
      await verifyPassword(password, await decoyHash(), request); // same time as a real check: emails are not probed
      return { failure: 'bad_credentials' };
    }
    const matches = await verifyPassword(password, user.PasswordHash, request);
    // A locked account takes as long to refuse as any other login: the time tells nothing either.
    if (user.LockedUntil && user.LockedUntil > Date.now()) return { failure: 'locked' };
    if (!matches) {
      await this.recordFailedLogin(user.Id);
      return { failure: 'bad_credentials' };
    }
    if (!user.Active) return { failure: 'inactive' };
    if (requireTotp && user.TwoFactorEnabled) {
      const step =
        totp && user.TwoFactorSecret && /^\d{6}$/.test(totp) ? await this.totpStep(user.TwoFactorSecret, totp, user.LastTotpStep) : null;
      if (step === null || !(await this.users.claimTotpStep(user.Id, step))) {
        await this.recordFailedLogin(user.Id);
        return { failure: 'two_factor' };
      }
    }
    await this.users.resetFailedLogins(user.Id);
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

  /** One more failure towards the lockout; this instance forgets what it knew of the user. */
  private async recordFailedLogin(userId: number): Promise<void> {
    await this.users.recordFailedLogin(userId, MAX_FAILED_LOGINS, new Date(Date.now() + LOCKOUT_MS));
    this.forget(userId);
  }

  // ---- user state ----

  /**
   * The user's current state, from the cache when it is younger than two seconds (docs/architecture.md §5).
   * A state read by others' requests is shared: one read per user at a time, and under steady traffic it is
   * read again in the background in the last PRINCIPAL_REREAD_AHEAD_MS of its two seconds, so no request
   * waits for it. (Each request that found it expired used to read it itself: on MariaDB, with every pool
   * connection busy, the ~50 requests in flight queued ~50 reads of the same row every two seconds, and
   * each burst held every request up for one more queue; docs/performance.md.) `fresh` reads the database
   * now, for this caller alone.
   */
  async userState(userId: number, fresh = false, tx?: Tx): Promise<UserState | null> {
    if (fresh || tx) return this.readState(userId, tx);
    return this.cachedState(userId) ?? this.sharedStateRead(userId);
  }

  /** `use` applied to the user's state: at once when it is cached, else once it is read. */
  private withUserState<T>(userId: number, use: (state: UserState | null) => T): T | Promise<T> {
    const cached = this.cachedState(userId);
    return cached ? use(cached) : this.userState(userId).then(use);
  }

  /** The user's state while its cached copy is current (its re-read started when due), else undefined. */
  private cachedState(userId: number): UserState | undefined {
    const now = Date.now();
    const cached = this.states.get(userId);
    if (!cached || cached.expires <= now) return undefined;
    if (cached.expires - now <= PRINCIPAL_REREAD_AHEAD_MS && !this.stateReads.has(userId)) {
      // A failure here is the next request's to meet, when the state has expired and it reads it itself.
      this.sharedStateRead(userId).catch(() => undefined);
    }
    return cached;
  }

  private sharedStateRead(userId: number): Promise<UserState | null> {
    const shared = this.stateReads.get(userId);
    if (shared) return shared;
    const read: Promise<UserState | null> = this.readState(userId).finally(() => {
      if (this.stateReads.get(userId) === read) this.stateReads.delete(userId);
    });
    this.stateReads.set(userId, read);
    return read;
  }

  /** Reads the user's state and caches it, unless the instance forgot what it knew of users meanwhile. */
  private async readState(userId: number, tx?: Tx): Promise<UserState | null> {
    const now = Date.now();
    const forgotten = this.forgotten;
    const access = await this.users.findAccess(userId, new Date(now - FAMILY_REVOCATION_KEPT_MS), tx);
    const keep = forgotten === this.forgotten;
    if (!access) {
      if (keep) this.states.delete(userId);
      return null;
    }
    const state: UserState = {
      principal: {
        userId,
        email: access.email,
        isAdmin: access.isAdmin,
        roles: new Set(access.roles.map((role) => role.toLowerCase())),
        businessIds: access.isAdmin ? null : access.businessIds,
        coworkerId: access.coworkerId,
      },
      active: access.active,
      twoFactor: access.twoFactor,
      stamp: access.stamp,
      lockedUntil: access.lockedUntil,
      revokedFamilies: new Set(access.revokedFamilies),
      // Two seconds from when the read began: the state is at most that old when it is used.
      expires: now + PRINCIPAL_CACHE_MS,
    };
    if (!keep) return state;
    if (this.states.size > 50_000) this.states.clear();
    this.states.set(userId, state);
    return state;
  }

  /** Drops what this instance remembers of a user (others re-read within two seconds). */
  forget(userId: number): void {
    // A read begun before this returns what it read to those already waiting for it, but caches nothing,
    // and later requests read again.
    this.forgotten++;
    this.states.delete(userId);
    this.stateReads.delete(userId);
  }
}
