import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { RefreshTokenRepository } from './refresh-token.repository.js';
import type { Tx } from '../persistence/tx.js';

export const REFRESH_TOKEN_DAYS = 15;
/**
 * How long a family's revocation is kept: as long as the longest-lived access token that may carry the
 * family (a customer's own token of up to a week, docs/api.md §2.4; /api/token's are shorter).
 */
export const FAMILY_REVOCATION_KEPT_MS = 7 * 86_400_000 + 3_600_000;

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

export type RefreshOutcome =
  { userId: number; clientId: string; familyId: string } | { refused: 'unknown' | 'expired' | 'client_mismatch' | 'replayed' };

/** A new family's id: 22 random base64url characters. */
export const newTokenFamily = (): string => randomBytes(16).toString('base64url');

/**
 * Refresh tokens (docs/api.md §2.3): opaque random strings stored only as hashes, valid 15 days, one live
 * per (user, client_id). Using one marks it used with a single conditional UPDATE, so of parallel
 * attempts with the same token exactly one wins; presenting a used or revoked one revokes them all.
 * A password login starts a family; its refreshes carry it on, and so do the access tokens minted from
 * them. A replay revokes the presented token's family too, which stops those access tokens
 * (AuthService reads the revoked families with the user's state, at most two seconds old).
 */
@Injectable()
export class RefreshTokensService {
  constructor(private readonly tokens: RefreshTokenRepository) {}

  /** Issues a new refresh token of `familyId` for (user, client), revoking the live one it replaces. */
  async issue(userId: number, clientId: string, familyId: string, tx?: Tx): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    await this.revokeAll(userId, clientId, tx);
    await this.tokens.insert(
      {
        userId,
        clientId,
        tokenHash: hash(token),
        createdOn: now,
        expiresOn: new Date(now.getTime() + REFRESH_TOKEN_DAYS * 86_400_000),
        familyId,
      },
      tx,
    );
    return token;
  }

  /**
   * Spends a refresh token presented with a client id (absent: the user's email, the default it was
   * issued under); the caller then issues its successor.
   */
  async use(token: string, presentedClientId: string | undefined): Promise<RefreshOutcome> {
    const stored = await this.tokens.findByHash(hash(token));
    if (!stored) return { refused: 'unknown' };
    const { userId, clientId } = stored;
    if ((presentedClientId ?? stored.email) !== clientId) return { refused: 'client_mismatch' };
    if (stored.spent) return this.replayed(userId, clientId, stored.familyId);
    if ((stored.expiresOn ?? 0) <= Date.now()) return { refused: 'expired' };
    // Another request spent it at the same moment: treat it as the replay it is.
    if (!(await this.tokens.markUsed(stored.id))) return this.replayed(userId, clientId, stored.familyId);
    return { userId, clientId, familyId: stored.familyId ?? newTokenFamily() };
  }

  /** A spent token presented again: the refresh tokens of (user, client) and the token's family are revoked. */
  private async replayed(userId: number, clientId: string, familyId: string | null): Promise<RefreshOutcome> {
    await this.revokeAll(userId, clientId);
    if (familyId) await this.tokens.revokeFamily(familyId, userId, new Date(Date.now() - FAMILY_REVOCATION_KEPT_MS));
    return { refused: 'replayed' };
  }

  /** Revokes every live refresh token of (user, client), or of the user when no client is named. */
  async revokeAll(userId: number, clientId?: string, tx?: Tx): Promise<void> {
    await this.tokens.revokeLive(userId, clientId, tx);
  }
}
