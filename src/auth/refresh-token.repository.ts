import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Database } from '../common/database.js';
import { parseDbDateTime } from '../common/wire-values.js';

/** A stored refresh token, found by its hash, with the email of its user (the default client id). */
export interface StoredRefreshToken {
  id: number;
  userId: number;
  clientId: string;
  email: string;
  expiresOn: number | null;
  spent: boolean;
}

/**
 * The SQL of the `refresh_token` table (docs/api.md §2.3). Spending and revoking are single conditional
 * UPDATEs, so that of parallel requests with the same token exactly one wins.
 */
@Injectable()
export class RefreshTokenRepository {
  constructor(private readonly db: Database) {}

  private readonly q = (name: string) => this.db.id(name);

  async insert(token: { userId: number; clientId: string; tokenHash: string; createdOn: Date; expiresOn: Date }, manager?: EntityManager): Promise<void> {
    await this.db.query(
      `INSERT INTO ${this.q('refresh_token')} (${['UserId', 'ClientId', 'TokenHash', 'CreatedOn', 'ExpiresOn'].map(this.q).join(', ')}) VALUES (?, ?, ?, ?, ?)`,
      [token.userId, token.clientId, token.tokenHash, this.db.dateParam(token.createdOn), this.db.dateParam(token.expiresOn)],
      manager,
    );
  }

  async findByHash(tokenHash: string): Promise<StoredRefreshToken | null> {
    const q = this.q;
    const [row] = await this.db.query(
      `SELECT t.${q('Id')} AS id, t.${q('UserId')} AS userId, t.${q('ClientId')} AS clientId, t.${q('ExpiresOn')} AS expiresOn, ` +
        `t.${q('UsedOn')} AS usedOn, t.${q('RevokedOn')} AS revokedOn, u.${q('Email')} AS email ` +
        `FROM ${q('refresh_token')} t JOIN ${q('user')} u ON u.${q('Id')} = t.${q('UserId')} WHERE t.${q('TokenHash')} = ?`,
      [tokenHash],
    );
    if (!row) return null;
    return {
      id: Number(row.id),
      userId: Number(row.userId),
      clientId: String(row.clientId),
      email: String(row.email),
      expiresOn: parseDbDateTime(row.expiresOn),
      spent: row.usedOn !== null || row.revokedOn !== null,
    };
  }

  /** Marks a live token used; false when another request used or revoked it first. */
  async markUsed(id: number): Promise<boolean> {
    const q = this.q;
    const claimed = await this.db.manager
      .createQueryBuilder()
      .update('refresh_token')
      .set({ UsedOn: this.db.dateParam(new Date()) })
      .where(`${q('Id')} = :id AND ${q('UsedOn')} IS NULL AND ${q('RevokedOn')} IS NULL`, { id })
      .execute();
    return claimed.affected === 1;
  }

  /** Revokes every live token of (user, client), or of the user when no client is named. */
  async revokeLive(userId: number, clientId?: string, manager?: EntityManager): Promise<void> {
    const q = this.q;
    const byClient = clientId === undefined ? '' : ` AND ${q('ClientId')} = ?`;
    await this.db.query(
      `UPDATE ${q('refresh_token')} SET ${q('RevokedOn')} = ? WHERE ${q('UserId')} = ?${byClient} AND ${q('RevokedOn')} IS NULL AND ${q('UsedOn')} IS NULL`,
      [this.db.dateParam(new Date()), userId, ...(clientId === undefined ? [] : [clientId])],
      manager,
    );
  }
}
