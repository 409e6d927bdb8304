import { RequestTimeoutError } from './request-timeout.js';
import type { Tx } from './tx.js';

/**
 * What one write request asks of the database work it starts: that none of it commits once the
 * answer deadline (REQUEST_TIMEOUT_MS) has passed, and, for an Idempotency-Key or an If-Match, extra
 * steps inside the same transaction. Made per write request by `runWrite` and passed explicitly to
 * the work it starts (the record router's `run`, the services, `Database.transaction`); reads pay
 * nothing for it.
 *
 * The deadline and the work meet here: when the deadline passes while no database work runs, the
 * request is answered 503 at once and any work started later is refused. While work runs it is
 * interrupted (the running statement is killed on MySQL) and rolled back, and its failure becomes
 * the 503, so the answer leaves only after the rollback. Work already committing is let finish and
 * answered as usual: its COMMIT was sent, so a 503 would be a lie.
 */
export class WriteScope {
  /** The id of the request (X-Request-Id), which the change log records with each entry of its transactions. */
  constructor(readonly requestId?: string) {}

  private expiredAt: number | null = null;
  private readonly running = new Set<() => void>();
  private committing = 0;
  /** Steps run inside the write's transaction just before COMMIT (idempotency record, versions). */
  readonly beforeCommit: Array<(tx: Tx, result: unknown) => Promise<void>> = [];
  /** How many of its transactions committed. */
  commits = 0;
  /** The strong ETag of the record the request wrote, for its answer. */
  etag: string | undefined;
  /** The If-Match header of a PUT or DELETE, when given. */
  ifMatch: string | undefined;
  /** Whether the write needs a transaction even when it is a single statement (extra steps to commit). */
  get needsTransaction(): boolean {
    return this.beforeCommit.length > 0;
  }

  get expired(): boolean {
    return this.expiredAt !== null;
  }

  /** Throws the 503 error once the deadline has passed: no database work starts after it. */
  check(): void {
    if (this.expiredAt !== null) throw new RequestTimeoutError();
  }

  /** Database work starts; `interrupt` stops it early. Returns the function that marks its end. */
  begin(interrupt: () => void): () => void {
    this.check();
    this.running.add(interrupt);
    return () => this.running.delete(interrupt);
  }

  /** The work is about to COMMIT: from here on the deadline lets it finish. */
  enterCommit(): () => void {
    this.check();
    this.committing++;
    return () => {
      this.committing--;
    };
  }

  /**
   * The answer deadline passed. Returns true when database work is in flight and will answer the
   * request itself (with 503 after its rollback, or with its result when it was committing).
   */
  expire(): boolean {
    this.expiredAt ??= Date.now();
    if (this.committing > 0) return true;
    if (!this.running.size) return false;
    for (const interrupt of this.running) interrupt();
    return true;
  }
}
