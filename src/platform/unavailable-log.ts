import type { FastifyBaseLogger } from 'fastify';

// 503 answers are logged as one line per second with their count by reason, not one line per request
// (docs/operations.md, "Logs"): under overload a 503 is the service working as designed, and a line
// per request only slows it down further and buries everything else in the log.

/** Why a request was answered 503. */
export type UnavailableReason = 'deadline' | 'busy' | 'queue' | 'database';

/** Reasons of overload (expected under a burst): warn. A database that cannot be reached: error. */
const OVERLOAD: ReadonlySet<UnavailableReason> = new Set(['deadline', 'busy', 'queue']);

/**
 * mysql2's pool full, SQLite's lock wait, a MariaDB statement stopped at its request's deadline
 * (max_statement_time for reads, KILL QUERY for writes: database.ts): overload, not a fault.
 */
const QUEUE_MESSAGES = /^(Queue limit reached|No connections available)/i;
const QUEUE_CODES = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'ER_STATEMENT_TIMEOUT', 'ER_QUERY_INTERRUPTED']);

/** The reason of a database error that answered 503 (the error chain as database-errors.ts reads it). */
export function databaseReason(error: unknown): UnavailableReason {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const candidate = e as { code?: string; errno?: number; message?: string; driverError?: unknown; cause?: unknown };
    if ((candidate.code && QUEUE_CODES.has(candidate.code)) || candidate.errno === 1969 || candidate.errno === 1317) return 'queue';
    if (typeof candidate.message === 'string' && QUEUE_MESSAGES.test(candidate.message)) return 'queue';
    e = candidate.driverError ?? candidate.cause;
  }
  return 'database';
}

const WINDOW_MS = 1000;

/** The 503s of one server's last second, written as one line when the second is over. */
class UnavailableTally {
  private counts = new Map<UnavailableReason, number>();
  private firstError: unknown;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly log: FastifyBaseLogger) {}

  add(reason: UnavailableReason, error: unknown): void {
    this.counts.set(reason, (this.counts.get(reason) ?? 0) + 1);
    if (reason === 'database' && this.firstError === undefined) this.firstError = error;
    // unref'd: a pending line never keeps the process alive (it is lost only with the process).
    this.timer ??= setTimeout(() => this.flush(), WINDOW_MS).unref();
  }

  private flush(): void {
    const counts = Object.fromEntries(this.counts);
    const total = [...this.counts.values()].reduce((sum, n) => sum + n, 0);
    const fault = [...this.counts.keys()].some((reason) => !OVERLOAD.has(reason));
    const line = { unavailable: counts, ...(this.firstError === undefined ? {} : { err: this.firstError }) };
    const message = `answered ${total} request${total === 1 ? '' : 's'} 503 in the last second`;
    if (fault) this.log.error(line, `${message}: the database is unavailable`);
    else this.log.warn(line, `${message}: overloaded`);
    this.counts = new Map();
    this.firstError = undefined;
    this.timer = undefined;
  }
}

const tallies = new WeakMap<object, UnavailableTally>();

/** Counts one 503 of this server (keyed by its Fastify instance, so apps in one process keep apart). */
export function countUnavailable(server: object, log: FastifyBaseLogger, reason: UnavailableReason, error: unknown): void {
  let tally = tallies.get(server);
  if (!tally) tallies.set(server, (tally = new UnavailableTally(log)));
  tally.add(reason, error);
}
