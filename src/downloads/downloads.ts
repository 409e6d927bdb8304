import { Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { DownloadFilesRepository, type DownloadFile } from './download-files.repository.js';

/** How long a download link works (docs/api.md §10.2: at least 5 minutes). */
export const DOWNLOAD_LIFETIME_MS = 15 * 60_000;

/**
 * What one user may keep stored for download (docs/settlement.md, "The PDF and its download"): the newest
 * 10 files, as many of them as fit in 10 MB (the newest always). A print beyond it drops the user's oldest
 * files, whose links then answer 404 as expired ones do: the newest link is the one a user opens.
 */
export const MAX_DOWNLOADS_PER_USER = 10;
export const MAX_DOWNLOAD_BYTES_PER_USER = 10 * 1024 * 1024;

/** The platform's download route. */
export const DOWNLOAD_PATH = '/ContentDownload/DownloadTempDataFile';

export const tokenHash = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/**
 * Temporary downloads (docs/settlement.md): a file is stored with the hash of a random token of 256
 * bits, and its link, `RedirectURL` of the platform's form, works for anyone holding it, with or
 * without credentials, for DOWNLOAD_LIFETIME_MS; then (or for a token never issued) it is a 404.
 */
@Injectable()
export class Downloads {
  constructor(private readonly files: DownloadFilesRepository) {}

  /** Stores the file made for a user (null: none), within the user's bound, and answers its link. */
  async offer(file: DownloadFile, userId: number | null): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const keep = { files: MAX_DOWNLOADS_PER_USER, bytes: MAX_DOWNLOAD_BYTES_PER_USER };
    await this.files.insert(tokenHash(token), file, new Date(Date.now() + DOWNLOAD_LIFETIME_MS), userId ?? 0, keep);
    return `${DOWNLOAD_PATH}?uniqueId=${token}&downloadFileName=${encodeURIComponent(file.FileName)}`;
  }

  /** The file of a token, while its link works; null otherwise. */
  fetch(token: unknown): Promise<DownloadFile | null> {
    if (typeof token !== 'string' || !/^[A-Za-z0-9_-]{20,100}$/.test(token)) return Promise.resolve(null);
    return this.files.find(tokenHash(token), new Date());
  }
}
