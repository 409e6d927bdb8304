// The two refusals of a bounded queue, answered 503 and 429 by the HTTP error writer
// (src/http/http-exception.filter.ts), which lies above this file.

/**
 * Work refused because a bounded capacity is full (password checks), or dropped because its request
 * was abandoned: 503 with Retry-After, and no error logged for it (it is overload, not a fault).
 */
export class ServiceBusyError extends Error {
  constructor(reason: string) {
    super(`The service is busy: ${reason}.`);
  }
}

/**
 * Work refused because its client already has its share of a bounded queue waiting (password checks
 * of one address, list scans of one user: fair-queue.ts): 429 with Retry-After, that client's rate,
 * not the service's state (docs/api.md §2.2).
 */
export class ClientBusyError extends Error {
  constructor(reason: string) {
    super(`Too many requests: ${reason}.`);
  }
}

/** Where a piece of work waits: its lane (served in turn with the other lanes) and its client within it. */
export interface FairQueueSlot {
  lane?: string;
  client: string;
  /** False once the work's request was abandoned: its turn is skipped and the work not run. */
  wanted: () => boolean;
}

export interface FairQueueLimits {
  /** How many run at once, in all. */
  concurrency: number;
  /** How many of one client run at once (at most `concurrency`). */
  perClientRunning: number;
  /** How many of one client may wait; one more is refused with ClientBusyError (429). */
  perClientWaiting: number;
  /** How many may wait in one lane; one more is refused with ServiceBusyError (503). */
  laneWaiting: number;
  /** Lanes with limits of their own. */
  lanes?: Record<string, { laneWaiting: number; perClientWaiting: number }>;
}

interface Task {
  client: string;
  wanted: () => boolean;
  start: () => void;
  drop: () => void;
}

interface Lane {
  /** Clients with work waiting, in their turn's order: the first is served next, then goes last. */
  readonly clients: Map<string, Task[]>;
  waiting: number;
}

/**
 * A bounded queue served round robin (docs/architecture.md, "Fair queues"): lanes take turns, and
 * within a lane the clients that have work waiting take turns, one piece each; so a flood from one
 * client, or from many clients in one lane, delays only itself. Work that starts at once runs at
 * once; work that waited starts from the finishing work's turn (`resume` decides how: bulk-lane.ts
 * for work that holds the request thread).
 */
export class FairQueue {
  private running = 0;
  private readonly runningOf = new Map<string, number>();
  private readonly lanes = new Map<string, Lane>();

  constructor(
    readonly limits: FairQueueLimits,
    private readonly resume: (start: () => void) => void = (start) => start(),
  ) {}

  get activeCount(): number {
    return this.running;
  }

  get pendingCount(): number {
    let count = 0;
    for (const lane of this.lanes.values()) count += lane.waiting;
    return count;
  }

  /** How many of `client`'s pieces wait (in any lane). */
  waitingOf(client: string): number {
    let count = 0;
    for (const lane of this.lanes.values()) count += lane.clients.get(client)?.length ?? 0;
    return count;
  }

  run<T>(slot: FairQueueSlot, work: () => Promise<T>): Promise<T> {
    if (!slot.wanted()) return Promise.reject(new ServiceBusyError('the request was abandoned'));
    const { client } = slot;
    if (this.canStart(client)) return this.start(client, work);
    const laneName = slot.lane ?? '';
    const lane = this.lanes.get(laneName) ?? { clients: new Map<string, Task[]>(), waiting: 0 };
    const queued = lane.clients.get(client) ?? [];
    const limits = this.limits.lanes?.[laneName] ?? this.limits;
    if (queued.length >= limits.perClientWaiting)
      return Promise.reject(new ClientBusyError('this client has its share of the queue waiting'));
    if (lane.waiting >= limits.laneWaiting) return Promise.reject(new ServiceBusyError('the queue is full'));
    return new Promise<T>((resolve, reject) => {
      queued.push({
        client,
        wanted: slot.wanted,
        start: () => void this.start(client, work).then(resolve, reject),
        drop: () => reject(new ServiceBusyError('the request was abandoned')),
      });
      lane.clients.set(client, queued);
      lane.waiting++;
      this.lanes.set(laneName, lane);
    });
  }

  private canStart(client: string): boolean {
    return this.running < this.limits.concurrency && (this.runningOf.get(client) ?? 0) < this.limits.perClientRunning;
  }

  private async start<T>(client: string, work: () => Promise<T>): Promise<T> {
    this.running++;
    this.runningOf.set(client, (this.runningOf.get(client) ?? 0) + 1);
    try {
      return await work();
    } finally {
      this.running--;
      const left = this.runningOf.get(client)! - 1;
      if (left > 0) this.runningOf.set(client, left);
      else this.runningOf.delete(client);
      this.next();
    }
  }

  /** Starts waiting work while there is room: the next lane in turn, its next client in turn. */
  private next(): void {
    let lanesTried = 0;
    while (this.running < this.limits.concurrency && this.lanes.size && lanesTried < this.lanes.size) {
      const [laneName, lane] = this.lanes.entries().next().value!;
      // The lane goes last whether or not it had a client ready: the next lane has the next turn.
      this.lanes.delete(laneName);
      const task = this.nextOf(lane);
      if (lane.waiting) this.lanes.set(laneName, lane);
      if (!task) {
        lanesTried++;
        continue;
      }
      lanesTried = 0;
      if (!task.wanted()) {
        task.drop();
        continue;
      }
      // Counted as running now, so that the loop does not start more than there is room for.
      this.running++;
      this.runningOf.set(task.client, (this.runningOf.get(task.client) ?? 0) + 1);
      this.resume(() => {
        this.running--;
        const left = this.runningOf.get(task.client)! - 1;
        if (left > 0) this.runningOf.set(task.client, left);
        else this.runningOf.delete(task.client);
        // Abandoned while its turn was coming (a later turn of the event loop): not run.
        if (task.wanted()) task.start();
        else {
          task.drop();
          this.next();
        }
      });
    }
  }

  /** The lane's next task in round robin over its clients, skipping clients at their running limit. */
  private nextOf(lane: Lane): Task | undefined {
    for (let tried = 0; tried < lane.clients.size; tried++) {
      const [client, queued] = lane.clients.entries().next().value!;
      lane.clients.delete(client);
      const ready = (this.runningOf.get(client) ?? 0) < this.limits.perClientRunning;
      const task = ready ? queued.shift() : undefined;
      if (queued.length) lane.clients.set(client, queued);
      if (task) {
        lane.waiting--;
        return task;
      }
    }
    return undefined;
  }
}
