import { Injectable } from '@nestjs/common';
import { Database } from '../persistence/database.js';

/** A file waiting for its download. */
export interface DownloadFile {
  FileName: string;
  ContentType: string;
  Content: Buffer;
}

/**
 * The download_file table (migration Settlement): files made for a download link, by the SHA-256 of
 * the link's token, until they expire. In the database, so any instance serves a link another made.
 */
@Injectable()
export class DownloadFilesRepository {
  constructor(private readonly db: Database) {}

  /**
   * Stores a file under a token's hash for a user (0: none), drops the files whose time is up, then the
   * user's oldest beyond `keep` (its newest `keep.files`, as many of those as fit in `keep.bytes`; the
   * newest always stays). The bound is applied after the insert, so parallel prints of one user end
   * within it too. A transient write: a file lost in a power failure is only a link that answers 404, and
   * the client prints again.
   */
  async insert(
    tokenHash: string,
    file: DownloadFile,
    expiresOn: Date,
    userId: number,
    keep: { files: number; bytes: number },
  ): Promise<void> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const now = new Date();
    await db.transientWrite([
      [`DELETE FROM ${q('download_file')} WHERE ${q('ExpiresOn')} < ?`, [db.dateParam(now)]],
      [
        `INSERT INTO ${q('download_file')} (${['TokenHash', 'FileName', 'ContentType', 'Content', 'CreatedOn', 'ExpiresOn', 'UserId', 'ByteCount'].map(q).join(', ')}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          tokenHash,
          file.FileName,
          file.ContentType,
          file.Content,
          db.dateParam(now),
          db.dateParam(expiresOn),
          userId,
          file.Content.byteLength,
        ],
      ],
    ]);
    // Newest first: a user has at most `keep.files` here, plus those of prints finishing at the same time.
    const rows = await db.query(
      `SELECT ${q('Id')} AS ${q('Id')}, ${q('ByteCount')} AS ${q('ByteCount')} FROM ${q('download_file')} WHERE ${q('UserId')} = ? ORDER BY ${q('Id')} DESC`,
      [userId],
    );
    const dropped: number[] = [];
    let bytes = 0;
    rows.forEach((row, i) => {
      bytes += Number(row.ByteCount);
      if (i > 0 && (i >= keep.files || bytes > keep.bytes)) dropped.push(Number(row.Id));
    });
    if (dropped.length)
      await db.transientWrite([[`DELETE FROM ${q('download_file')} WHERE ${q('Id')} IN (${dropped.map(() => '?').join(', ')})`, dropped]]);
  }

  /** The file stored under a token's hash, while it has not expired. */
  async find(tokenHash: string, now: Date): Promise<DownloadFile | null> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const [row] = await db.query(
      `SELECT ${q('FileName')}, ${q('ContentType')}, ${q('Content')} FROM ${q('download_file')} WHERE ${q('TokenHash')} = ? AND ${q('ExpiresOn')} > ?`,
      [tokenHash, db.dateParam(now)],
    );
    if (!row) return null;
    const content = row.Content as Buffer | Uint8Array;
    return {
      FileName: String(row.FileName),
      ContentType: String(row.ContentType),
      Content: Buffer.isBuffer(content) ? content : Buffer.from(content),
    };
  }
}
