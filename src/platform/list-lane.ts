import type { FastifyReply, FastifyRequest } from 'fastify';
import { bulkTurn } from './bulk-lane.js';
import { FairQueue } from './fair-queue.js';
import type { Principal } from './principal.js';

/**
 * Lists (a page with its count, filters no index serves, several by id) are the reads whose cost a
 * client chooses: a text filter over a large table scans it, twice. They take turns per user
 * (docs/architecture.md, "Fair queues"): PER_USER_RUNNING lists of a user run at once (a back office
 * loads a few lists side by side) and LISTS_RUNNING in all, below the MariaDB pool's default 10, so a
 * user's flood of scans holds a few database connections (MariaDB) or one stretch of the request thread
 * at a time (SQLite, whose statements run in the process) and the GETs by id of everyone else are
 * answered beside it. A user may have PER_USER_WAITING lists waiting, served round robin with other users'; one
 * more is refused with 429 and Retry-After, and 503 only when the whole queue is full. A list that
 * waited starts in a later turn of the event loop (bulk-lane.ts), after the requests that arrived
 * meanwhile; a list whose request was answered (its deadline) or abandoned is not run.
 */
const LISTS_RUNNING = 6;
const PER_USER_RUNNING = 3;
const PER_USER_WAITING = 64;
const LISTS_WAITING = 512;

export const listScans = new FairQueue(
  { concurrency: LISTS_RUNNING, perClientRunning: PER_USER_RUNNING, perClientWaiting: PER_USER_WAITING, laneWaiting: LISTS_WAITING },
  (start) => void bulkTurn().then(start),
);

/** Runs a list for `actor` in its turn (an anonymous list: by its client address). */
export function inListTurn<T>(
  actor: Principal | undefined,
  request: FastifyRequest,
  reply: FastifyReply,
  list: () => Promise<T>,
): Promise<T> {
  return listScans.run(
    {
      client: actor ? `user ${actor.userId}` : `address ${request.ip}`,
      wanted: () => !reply.sent && !(request.raw?.socket?.destroyed ?? false),
    },
    list,
  );
}
