import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { RefreshTokenRepository } from './refresh-token.repository.js';

export const REFRESH_TOKEN_DAYS = 15;

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

export type RefreshOutcome = { userId: number; clientId: string } | { refused: 'unknown' | 'expired' | 'client_mismatch' | 'replayed' };

/**
 * Refresh tokens (docs/api.md §2.3): opaque random strings stored only as hashes, valid 15 days, one live
 * per (user, client_id). Using one marks it used with a single conditional UPDATE, so of parallel
 * attempts with the same token exactly one wins; presenting a used or revoked one revokes them all.
 */
@Injectable()
export class RefreshTokensService {
  constructor(private readonly tokens: RefreshTokenRepository) {}

  /** Issues a new refresh token for (user, client), revoking the live one it replaces. */
  async issue(userId: number, clientId: string, manager?: EntityManager): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    await this.revokeAll(userId, clientId, manager);
    await this.tokens.insert({ userId, clientId, tokenHash: hash(token), createdOn: now, expiresOn: new Date(now.getTime() + REFRESH_TOKEN_DAYS * 86_400_000) }, manager);
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
    if (stored.spent) {
      await this.revokeAll(userId, clientId);
      return { refused: 'replayed' };
    }
    if ((stored.expiresOn ?? 0) <= Date.now()) return { refused: 'expired' };
    if (!(await this.tokens.markUsed(stored.id))) {
      // Another request spent it at the same moment: treat it as the replay it is.
      await this.revokeAll(userId, clientId);
      return { refused: 'replayed' };
    }
    return { userId, clientId };
  }

  /** Revokes every live refresh token of (user, client), or of the user when no client is named. */
  async revokeAll(userId: number, clientId?: string, manager?: EntityManager): Promise<void> {
    await this.tokens.revokeLive(userId, clientId, manager);
  }
}
