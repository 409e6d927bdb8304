import { Injectable } from '@nestjs/common';
import { Database } from '../../persistence/database.js';
import type { Tx } from '../../persistence/tx.js';

/** A claimed Idempotency-Key as stored: pending while Status is null, answered after. */
export interface StoredKey {
  Id: number;
  RequestHash: string;
  Status: number | null;
  Body: string | null;
  ETag: string | null;
  CreatedOn: unknown;
  ExpiresOn: unknown;
}

const STORED_KEY_COLUMNS = ['Id', 'RequestHash', 'Status', 'Body', 'ETag', 'CreatedOn', 'ExpiresOn'];
/** What a stored key costs besides its answer's bytes (its hashes, tag and dates), counted with it. */
export const STORED_KEY_OVERHEAD_BYTES = 256;

/** The SQL of Idempotency-Key claims (table idempotency_key, unique on ScopeHash). */
@Injectable()
export class IdempotencyRepository {
  constructor(private readonly db: Database) {}

  private q = (name: string) => this.db.id(name);

  /** Inserts a pending claim and gives its id; a claim of the scope already there fails as a unique violation. */
  async insert(scopeHash: string, requestHash: string, userId: number, createdOn: Date, expiresOn: Date): Promise<number> {
    const q = this.q;
    const result = await this.db.run(
      `INSERT INTO ${q('idempotency_key')} (${q('ScopeHash')}, ${q('RequestHash')}, ${q('UserId')}, ${q('CreatedOn')}, ${q('ExpiresOn')}) VALUES (?, ?, ?, ?, ?)`,
      [scopeHash, requestHash, userId, this.db.dateParam(createdOn), this.db.dateParam(expiresOn)],
    );
    return result.insertId;
  }

  /** The claim of a scope, if there is one. */
  async find(scopeHash: string): Promise<StoredKey | undefined> {
    const q = this.q;
    const [row] = await this.db.query<StoredKey>(
      `SELECT ${STORED_KEY_COLUMNS.map(q).join(', ')} FROM ${q('idempotency_key')} WHERE ${q('ScopeHash')} = ?`,
      [scopeHash],
    );
    return row;
  }

  /** Writes the answer into the claim (in the write's transaction when `tx` is given), with the room it takes. */
  async complete(id: number, status: number, body: string, etag: string | null, tx?: Tx): Promise<void> {
    const q = this.q;
    const bytes = Buffer.byteLength(body) + Buffer.byteLength(etag ?? '') + STORED_KEY_OVERHEAD_BYTES;
    await this.db.query(
      `UPDATE ${q('idempotency_key')} SET ${q('Status')} = ?, ${q('Body')} = ?, ${q('ETag')} = ?, ${q('StoredBytes')} = ? WHERE ${q('Id')} = ?`,
      [status, body, etag, bytes, id],
      tx,
    );
  }

  /** The room a user's stored answers take. */
  async storedBytes(userId: number): Promise<number> {
    const q = this.q;
    const [row] = await this.db.query<{ n: unknown }>(
      `SELECT COALESCE(SUM(${q('StoredBytes')}), 0) AS n FROM ${q('idempotency_key')} WHERE ${q('UserId')} = ?`,
      [userId],
    );
    return Number(row?.n ?? 0);
  }

  /** A user's stored refusals (4xx answers), oldest first, with the room each takes. */
  async oldestRefusals(userId: number, limit: number): Promise<Array<{ id: number; bytes: number }>> {
    const q = this.q;
    const rows = await this.db.query<{ Id: unknown; StoredBytes: unknown }>(
      `SELECT ${q('Id')} AS ${q('Id')}, ${q('StoredBytes')} AS ${q('StoredBytes')} FROM ${q('idempotency_key')} WHERE ${q('UserId')} = ? AND ${q('Status')} >= 400 ORDER BY ${q('Id')} LIMIT ?`,
      [userId, limit],
    );
    return rows.map((row) => ({ id: Number(row.Id), bytes: Number(row.StoredBytes) }));
  }

  /** Deletes stored refusals (a retry of their keys is processed afresh: they wrote nothing). */
  async deleteRefusals(ids: number[]): Promise<void> {
    if (!ids.length) return;
    const q = this.q;
    await this.db.query(
      `DELETE FROM ${q('idempotency_key')} WHERE ${q('Status')} >= 400 AND ${q('Id')} IN (${ids.map(() => '?').join(', ')})`,
      ids,
    );
  }

  async delete(id: number): Promise<void> {
    await this.db.query(`DELETE FROM ${this.q('idempotency_key')} WHERE ${this.q('Id')} = ?`, [id]);
  }

  /** Deletes the keys expired before `now`. */
  async deleteExpired(now: Date): Promise<void> {
    await this.db.query(`DELETE FROM ${this.q('idempotency_key')} WHERE ${this.q('ExpiresOn')} < ?`, [this.db.dateParam(now)]);
  }
}
