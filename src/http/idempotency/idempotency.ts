import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isUniqueViolation } from '../../persistence/database-errors.js';
import { failureConfirmation } from '../../records/envelopes.js';
import { RecordValidationException, WireResponseException } from '../../records/errors.js';
import { PreparedAnswer, toErrorResponse } from '../http-exception.filter.js';
import type { AppConfig } from '../../config/configuration.js';
import type { Principal } from '../../platform/principal.js';
import { parseDbDateTime } from '../../records/wire-values.js';
import type { WriteScope } from '../../persistence/write-scope.js';
import { canonicalJson } from './canonical-json.js';
import { IdempotencyRepository } from './idempotency.repository.js';

/** How long an answer is kept for replay. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 3_600_000;
/**
 * A claim still pending this long after it was made belongs to a request that is over: no request's
 * work commits after its deadline (REQUEST_TIMEOUT_MS; its last-resort 503 comes one more period
 * later), so its write never committed and the key may be taken over.
 */
const abandonedAfterMs = (requestTimeoutMs: number) => 2 * requestTimeoutMs + 5_000;
/** A 4xx answer longer than this is stored as its status and Message only (docs/api.md §5.2). */
const MAX_STORED_REFUSAL_BYTES = 8 * 1024;
/** The room the stored answers of one user's keys may take (docs/api.md §5.2). */
export const MAX_STORED_BYTES_PER_USER = 1024 * 1024;
/** How often claims that could not be released (the database was away) are released again. */
const RELEASE_RETRY_MS = 1_000;
/** Expired keys are deleted at most this often by each instance. */
const CLEANUP_EVERY_MS = 60_000;
const KEY = /^[\x20-\x7e]{1,255}$/;
/** Routes whose POSTs take no Idempotency-Key: the token endpoint retries by its own protocol. */
const EXEMPT = /^\/api\/token\/?(\?|$)/i;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Idempotency-Key on POST (docs/api.md §11.6). The first request with a key claims it with an
 * insert of a pending row, committed before any work, which the unique index on the key's scope
 * (user, method, path, key) protects: any other request with the key, on any instance, finds it.
 * The answer is written into the claim inside the write's own transaction (a step before COMMIT), so
 * the write and its answer commit together or not at all; a POST that writes nothing stores it after.
 * A retry with the same body gets that answer again; with another body 422; while pending 409.
 * 5xx and 429 answers are not kept: the claim is removed, so a retry is processed afresh.
 * A user's stored answers take at most MAX_STORED_BYTES_PER_USER: past it, the user's oldest stored
 * refusals (4xx) give their room up (a retry of such a key is processed afresh; it wrote nothing). Stored
 * successes are never given up, since they are what keeps a retry from writing twice.
 */
@Injectable()
export class Idempotency {
  private lastCleanup = 0;
  private readonly abandonedClaimMs: number;
  /** Claims of failed requests not yet given back because the database failed too: released once it answers. */
  private readonly unreleased = new Set<number>();
  private releasing: NodeJS.Timeout | null = null;

  constructor(
    private readonly keys: IdempotencyRepository,
    config: ConfigService<AppConfig, true>,
  ) {
    this.abandonedClaimMs = abandonedAfterMs(config.get('REQUEST_TIMEOUT_MS', { infer: true }));
  }

  async run(
    request: FastifyRequest & { user?: Principal },
    reply: FastifyReply,
    scope: WriteScope,
    handle: () => Promise<unknown>,
  ): Promise<unknown> {
    const header = request.headers['idempotency-key'];
    if (request.method !== 'POST' || header === undefined || EXEMPT.test(request.url)) return handle();
    if (typeof header !== 'string' || !KEY.test(header)) {
      throw RecordValidationException.field(
        'Idempotency-Key',
        'Idempotency-Key must be 1 to 255 printable ASCII characters.',
        typeof header === 'string' ? header : null,
      );
    }
    const path = request.url.split('?')[0].replace(/\/+$/, '');
    const scopeHash = sha256(`${request.user?.userId ?? 0}\n${request.method}\n${path}\n${header}`);
    const requestHash = sha256(canonicalJson(request.body));
    const userId = request.user?.userId ?? 0;
    const id = await this.claim(scopeHash, requestHash, userId);
    let stored: string | null = null;
    // Inside the write's transaction, just before COMMIT: the answer it will get.
    scope.beforeCommit.push(async (tx, result) => {
      stored = answerText(result);
      await this.keys.complete(id, 200, stored, scope.etag ?? null, tx);
    });
    let result: unknown;
    try {
      result = await handle();
    } catch (error) {
      // A write that committed keeps the answer it committed with (the client may retry to get it).
      if (scope.commits > 0 && stored !== null) throw error;
      const { status, body } = toErrorResponse(error);
      if (status >= 500 || status === 429) await this.release(id);
      else
        await this.keys.complete(id, status, storedRefusal(status, body), null).then(
          () => this.keepWithinSpace(userId),
          () => this.release(id),
        );
      throw error;
    }
    // A POST that wrote nothing (or answers other than its write's result) is completed now.
    const text = answerText(result);
    if (stored !== text) await this.keys.complete(id, reply.statusCode, text, scope.etag ?? null);
    await this.keepWithinSpace(userId);
    return result;
  }

  /**
   * Gives up the user's oldest stored refusals until its stored answers fit MAX_STORED_BYTES_PER_USER
   * (the newest answers are the ones a retry asks for). Best effort: a failure leaves the room taken
   * until the keys expire, and never fails the request.
   */
  private async keepWithinSpace(userId: number): Promise<void> {
    try {
      let excess = (await this.keys.storedBytes(userId)) - MAX_STORED_BYTES_PER_USER;
      if (excess <= 0) return;
      const drop: number[] = [];
      for (const refusal of await this.keys.oldestRefusals(userId, 1000)) {
        if (excess <= 0) break;
        drop.push(refusal.id);
        excess -= refusal.bytes;
      }
      await this.keys.deleteRefusals(drop);
    } catch {
      /* the database is away: the next keyed request of the user tries again */
    }
  }

  /** Claims the key, or answers from it: the stored answer, 422 for another body, 409 while pending. */
  private async claim(scopeHash: string, requestHash: string, userId: number): Promise<number> {
    this.cleanUp();
    for (let attempt = 0; ; attempt++) {
      const now = new Date();
      try {
        return await this.keys.insert(scopeHash, requestHash, userId, now, new Date(now.getTime() + IDEMPOTENCY_KEY_TTL_MS));
      } catch (error) {
        if (!isUniqueViolation(error) || attempt > 2) throw error;
      }
      const row = await this.keys.find(scopeHash);
      if (!row) continue; // removed meanwhile (a failed first request): claim it again
      const expired = dbTime(row.ExpiresOn) <= now.getTime();
      const abandoned = row.Status === null && dbTime(row.CreatedOn) <= now.getTime() - this.abandonedClaimMs;
      if (expired || abandoned) {
        await this.keys.delete(row.Id);
        continue;
      }
      if (row.RequestHash !== requestHash) {
        throw new WireResponseException(
          failureConfirmation(
            422,
            'This Idempotency-Key was already used for another request (a different body); use a new key for a new request.',
          ),
          422,
        );
      }
      if (row.Status === null) {
        throw new WireResponseException(
          failureConfirmation(409, 'A request with this Idempotency-Key is still being processed; try again shortly.'),
          409,
          { 'Retry-After': '1' },
        );
      }
      const headers: Record<string, string> = { 'Idempotent-Replayed': 'true' };
      if (row.ETag) headers.ETag = row.ETag;
      throw new PreparedAnswer(Number(row.Status), row.Body ?? '', headers);
    }
  }

  /** Gives the key back: the request failed in a way a retry may not repeat. */
  private async release(id: number): Promise<void> {
    await this.keys.delete(id).catch(() => this.releaseLater(id));
  }

  /** The database failed with the request: the claim is released again every second until it answers. */
  private releaseLater(id: number): void {
    if (this.unreleased.size < 10_000) this.unreleased.add(id);
    this.releasing ??= setInterval(() => {
      for (const claim of this.unreleased) {
        this.keys.delete(claim).then(
          () => this.unreleased.delete(claim),
          () => undefined,
        );
      }
      if (!this.unreleased.size && this.releasing) {
        clearInterval(this.releasing);
        this.releasing = null;
      }
    }, RELEASE_RETRY_MS).unref();
  }

  /** Deletes expired keys now and then, in the background (never in a request's way). */
  private cleanUp(): void {
    const now = Date.now();
    if (now - this.lastCleanup < CLEANUP_EVERY_MS) return;
    this.lastCleanup = now;
    this.keys.deleteExpired(new Date(now)).catch(() => undefined);
  }
}

/**
 * What a 4xx answer is stored as: its body, or, when that is long (a 400 that echoes a long value), only
 * its status and Message, so it always fits the column on both databases and a key keeps little.
 */
function storedRefusal(status: number, body: unknown): string {
  const text = JSON.stringify(body);
  if (Buffer.byteLength(text) <= MAX_STORED_REFUSAL_BYTES) return text;
  const message = (body as { Message?: unknown } | null)?.Message;
  return JSON.stringify(failureConfirmation(status, typeof message === 'string' ? message.slice(0, 1000) : 'The request was refused.'));
}

/** The body text an answer goes out with (Fastify serialises objects with JSON.stringify). */
const answerText = (result: unknown): string =>
  result === undefined || result === null ? '' : typeof result === 'string' ? result : JSON.stringify(result);

/** A datetime column as the databases return it, in milliseconds. */
const dbTime = (value: unknown): number => parseDbDateTime(value) ?? 0;
