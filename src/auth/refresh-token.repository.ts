import { Injectable } from '@nestjs/common';
import { Database } from '../persistence/database.js';
import { isUniqueViolation } from '../persistence/database-errors.js';
import { parseDbDateTime } from '../records/wire-values.js';
import type { Tx } from '../persistence/tx.js';

/** A stored refresh token, found by its hash, with the email of its user (the default client id). */
export interface StoredRefreshToken {
  id: number;
  userId: number;
  clientId: string;
  email: string;
  expiresOn: number | null;
  spent: boolean;
  /** The family it belongs to (null: issued before families existed). */
  familyId: string | null;
}

/** The one turn of a refresh token's row: its spend (a token is spent once). */
const SPENT_TURN = 1;

/**
 * The SQL of the `refresh_token` table (docs/api.md §2.3). Spending and revoking are single conditional
 * UPDATEs, so that of parallel requests with the same token exactly one wins.
 */
@Injectable()
export class RefreshTokenRepository {
  constructor(private readonly db: Database) {}

  private readonly q = (name: string) => this.db.id(name);

  async insert(
    token: { userId: number; clientId: string; tokenHash: string; createdOn: Date; expiresOn: Date; familyId: string },
    tx?: Tx,
  ): Promise<void> {
    await this.db.query(
      `INSERT INTO ${this.q('refresh_token')} (${['UserId', 'ClientId', 'TokenHash', 'CreatedOn', 'ExpiresOn', 'FamilyId'].map(this.q).join(', ')}) VALUES (?, ?, ?, ?, ?, ?)`,
      [
        token.userId,
        token.clientId,
        token.tokenHash,
        this.db.dateParam(token.createdOn),
        this.db.dateParam(token.expiresOn),
        token.familyId,
      ],
      tx,
    );
  }

  async findByHash(tokenHash: string): Promise<StoredRefreshToken | null> {
    const q = this.q;
    const [row] = await this.db.query(
      `SELECT t.${q('Id')} AS id, t.${q('UserId')} AS userId, t.${q('ClientId')} AS clientId, t.${q('ExpiresOn')} AS expiresOn, ` +
        `t.${q('UsedOn')} AS usedOn, t.${q('RevokedOn')} AS revokedOn, t.${q('FamilyId')} AS familyId, u.${q('Email')} AS email ` +
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
      familyId: row.familyId === null ? null : String(row.familyId),
    };
  }

  /**
   * Marks a live token used; false when another request used or revoked it first. On Galera two nodes could
   * both spend one token from one row version (no lost-update check across nodes): the spend then takes the
   * row's one turn (Database.runGuarded, docs/architecture.md §7), so only one of them commits.
   */
  async markUsed(id: number): Promise<boolean> {
    const q = this.q;
    const sql = `UPDATE ${q('refresh_token')} SET ${q('UsedOn')} = ? WHERE ${q('Id')} = ? AND ${q('UsedOn')} IS NULL AND ${q('RevokedOn')} IS NULL`;
    const parameters = [this.db.dateParam(new Date()), id];
    if (!(await this.db.replicated())) return (await this.db.run(sql, parameters)).affected === 1;
    return this.db.transaction((tx) => this.db.runGuarded(sql, parameters, tx, { entity: 'refresh_token', id, turn: SPENT_TURN }));
  }

  /**
   * Marks a family revoked: the access tokens minted from it stop (docs/api.md §2.3). Revocations older
   * than `forgetBefore` (no token they stop is still unexpired) are removed on the way.
   */
  async revokeFamily(familyId: string, userId: number, forgetBefore: Date): Promise<void> {
    const q = this.q;
    await this.db.query(`DELETE FROM ${q('revoked_token_family')} WHERE ${q('UserId')} = ? AND ${q('RevokedOn')} < ?`, [
      userId,
      this.db.dateParam(forgetBefore),
    ]);
    try {
      await this.db.query(
        `INSERT INTO ${q('revoked_token_family')} (${q('FamilyId')}, ${q('UserId')}, ${q('RevokedOn')}) VALUES (?, ?, ?)`,
        [familyId, userId, this.db.dateParam(new Date())],
      );
    } catch (error) {
      // A parallel replay revoked it first.
      if (!isUniqueViolation(error)) throw error;
    }
  }

  /** Revokes every live token of (user, client), or of the user when no client is named. */
  async revokeLive(userId: number, clientId?: string, tx?: Tx): Promise<void> {
    const q = this.q;
    const byClient = clientId === undefined ? '' : ` AND ${q('ClientId')} = ?`;
    await this.db.query(
      `UPDATE ${q('refresh_token')} SET ${q('RevokedOn')} = ? WHERE ${q('UserId')} = ?${byClient} AND ${q('RevokedOn')} IS NULL AND ${q('UsedOn')} IS NULL`,
      [this.db.dateParam(new Date()), userId, ...(clientId === undefined ? [] : [clientId])],
      tx,
    );
  }
}
