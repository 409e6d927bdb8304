import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Database } from '../common/database.js';
import { parseDbDateTime } from '../common/wire-values.js';

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
  constructor(private readonly db: Database) {}

  private q = (name: string) => this.db.id(name);

  /** Issues a new refresh token for (user, client), revoking the live one it replaces. */
  async issue(userId: number, clientId: string, manager?: EntityManager): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    await this.revokeAll(userId, clientId, manager);
    await this.db.query(
      `INSERT INTO ${this.q('refresh_token')} (${['UserId', 'ClientId', 'TokenHash', 'CreatedOn', 'ExpiresOn'].map(this.q).join(', ')}) VALUES (?, ?, ?, ?, ?)`,
      [userId, clientId, hash(token), this.db.dateParam(now), this.db.dateParam(new Date(now.getTime() + REFRESH_TOKEN_DAYS * 86_400_000))],
      manager,
    );
    return token;
  }

  /**
   * Spends a refresh token presented with a client id (absent: the user's email, the default it was
   * issued under); the caller then issues its successor.
   */
  async use(token: string, presentedClientId: string | undefined): Promise<RefreshOutcome> {
    const q = this.q;
    const [row] = await this.db.query(
      `SELECT t.${q('Id')} AS id, t.${q('UserId')} AS userId, t.${q('ClientId')} AS clientId, t.${q('ExpiresOn')} AS expiresOn, ` +
        `t.${q('UsedOn')} AS usedOn, t.${q('RevokedOn')} AS revokedOn, u.${q('Email')} AS email ` +
        `FROM ${q('refresh_token')} t JOIN ${q('user')} u ON u.${q('Id')} = t.${q('UserId')} WHERE t.${q('TokenHash')} = ?`,
      [hash(token)],
    );
    if (!row) return { refused: 'unknown' };
    const userId = Number(row.userId);
    const clientId = String(row.clientId);
    if ((presentedClientId ?? String(row.email)) !== clientId) return { refused: 'client_mismatch' };
    if (row.usedOn !== null || row.revokedOn !== null) {
      await this.revokeAll(userId, clientId);
      return { refused: 'replayed' };
    }
    if ((parseDbDateTime(row.expiresOn) ?? 0) <= Date.now()) return { refused: 'expired' };
    const claimed = await this.db.manager
      .createQueryBuilder()
      .update('refresh_token')
      .set({ UsedOn: this.db.dateParam(new Date()) })
      .where(`${q('Id')} = :id AND ${q('UsedOn')} IS NULL AND ${q('RevokedOn')} IS NULL`, { id: Number(row.id) })
      .execute();
    if (claimed.affected !== 1) {
      // Another request spent it at the same moment: treat it as the replay it is.
      await this.revokeAll(userId, clientId);
      return { refused: 'replayed' };
    }
    return { userId, clientId };
  }

  /** Revokes every live refresh token of (user, client), or of the user when no client is named. */
  async revokeAll(userId: number, clientId?: string, manager?: EntityManager): Promise<void> {
    const q = this.q;
    const byClient = clientId === undefined ? '' : ` AND ${q('ClientId')} = ?`;
    await this.db.query(
      `UPDATE ${q('refresh_token')} SET ${q('RevokedOn')} = ? WHERE ${q('UserId')} = ?${byClient} AND ${q('RevokedOn')} IS NULL AND ${q('UsedOn')} IS NULL`,
      [this.db.dateParam(new Date()), userId, ...(clientId === undefined ? [] : [clientId])],
      manager,
    );
  }
}
