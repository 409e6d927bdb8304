import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ServiceBusyError } from '../common/http-exception.filter.js';

// Passwords are stored as salted scrypt hashes (Node's crypto), with their parameters so they can be
// raised later without invalidating stored hashes: scrypt$N$r$p$salt$hash (base64url).

const PARAMETERS = { N: 16384, r: 8, p: 1 };
const KEY_LENGTH = 64;

/**
 * The request a password check is made for, given to the check by the guards (authentication.guard.ts,
 * passport.guards.ts, through the strategies): whether it still wants its answer (a check whose turn
 * comes after its request was abandoned is not run) and the client address it comes from. Passed
 * explicitly, not in an AsyncLocalStorage: on Node 22 any AsyncLocalStorage in use makes every promise
 * of the process pay for async hooks (docs/architecture.md, "Request context").
 */
export interface PasswordRequest {
  wanted: () => boolean;
  client: string;
}

/** The password request the guard made for an HTTP request, for the strategy passport calls with it. */
const passwordRequests = new WeakMap<object, PasswordRequest>();
export const setPasswordRequest = (request: FastifyRequest, reply: FastifyReply): void => void passwordRequests.set(request, passwordRequestOf(request, reply));
export const passwordRequestFor = (request: FastifyRequest): PasswordRequest | undefined => passwordRequests.get(request);

/** The password request of a Fastify request: wanted while unanswered (no deadline 503 yet) and its client connected. */
export const passwordRequestOf = (request: FastifyRequest, reply: FastifyReply): PasswordRequest => ({
  wanted: () => !reply.sent && !(request.raw?.socket?.destroyed ?? false),
  client: request.ip,
});

const ALWAYS: PasswordRequest = { wanted: () => true, client: '' };

/**
 * Each hash takes 16 MiB and one of libuv's four pool threads for tens of milliseconds: at most two
 * run at once, so logins can neither push the instance's memory past its budget nor take every pool
 * thread from file and DNS work; and no more than the cores this process may run on (its CPU
 * affinity), since hashes beyond those gain no speed, only memory. Password checks never queue
 * without bound (docs/api.md §2.2): a few wait their turn, at most `perClient` of them from one client
 * address, and beyond those a check is refused at once (503 with Retry-After) instead of waiting; a
 * waiting check whose request was abandoned is dropped when its turn comes. Hashes for writes (a
 * user's new password) come from authenticated, rate-limited requests and may queue further.
 */
class HashingCapacity {
  activeCount = 0;
  private readonly waiting: Array<{ wanted: () => boolean; start: () => void; drop: () => void }> = [];
  private readonly perClientCount = new Map<string, number>();

  constructor(readonly concurrency: number, readonly queueLimit: number, readonly perClient: number, readonly writeQueueLimit: number) {}

  get pendingCount(): number {
    return this.waiting.length;
  }

  run<T>(work: () => Promise<T>, request: PasswordRequest = ALWAYS): Promise<T> {
    if (!request.wanted()) return Promise.reject(new ServiceBusyError('the request was abandoned'));
    const { client } = request;
    if (client) {
      const inFlight = this.perClientCount.get(client) ?? 0;
      if (inFlight >= this.perClient) return Promise.reject(new ServiceBusyError('password checks of this client are at capacity'));
      this.perClientCount.set(client, inFlight + 1);
    }
    const done = () => {
      if (!client) return;
      const left = (this.perClientCount.get(client) ?? 1) - 1;
      if (left > 0) this.perClientCount.set(client, left);
      else this.perClientCount.delete(client);
    };
    if (this.activeCount < this.concurrency) return this.start(work).finally(done);
    if (this.waiting.length >= (client ? this.queueLimit : this.writeQueueLimit)) {
      done();
      return Promise.reject(new ServiceBusyError('password checks are at capacity'));
    }
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({
        wanted: request.wanted,
        start: () => void this.start(work).then(resolve, reject),
        drop: () => reject(new ServiceBusyError('the request was abandoned')),
      });
    }).finally(done);
  }

  private async start<T>(work: () => Promise<T>): Promise<T> {
    this.activeCount++;
    try {
      return await work();
    } finally {
      this.activeCount--;
      this.next();
    }
  }

  private next(): void {
    while (this.activeCount < this.concurrency && this.waiting.length) {
      const task = this.waiting.shift()!;
      if (task.wanted()) task.start();
      else task.drop();
    }
  }
}

const RUNNING = Math.max(1, Math.min(2, availableParallelism()));
export const passwordHashing = new HashingCapacity(RUNNING, RUNNING * 8, 4, 512);

function derive(password: string, salt: Buffer, options: ScryptOptions, request?: PasswordRequest): Promise<Buffer> {
  return passwordHashing.run(() => new Promise<Buffer>((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem: 64 * 1024 * 1024 }, (error, key) => (error ? reject(error) : resolve(key)));
  }), request);
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMETERS);
  return ['scrypt', PARAMETERS.N, PARAMETERS.r, PARAMETERS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * Hashes made before a write's transaction begins (RecordService.prepareSave), kept with the body they
 * belong to: no transaction waits on a hash while it holds the database.
 */
const prehashed = new WeakMap<object, { password: string; hash: Promise<string> }>();

/** Hashes `password` for the write of `body` now, before its transaction. */
export async function prehashPassword(body: object, password: string): Promise<void> {
  const hash = hashPassword(password);
  prehashed.set(body, { password, hash });
  await hash;
}

/** The hash of `password` made for `body` before its transaction, or made now when there is none. */
export function passwordHashFor(body: object, password: string): Promise<string> {
  const made = prehashed.get(body);
  return made && made.password === password ? made.hash : hashPassword(password);
}

/** Checks a password against its stored hash, for `request` (a login: dropped once it is abandoned, counted per client). */
export async function verifyPassword(password: string, stored: string, request?: PasswordRequest): Promise<boolean> {
  const [scheme, N, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(N), r: Number(r), p: Number(p) }, request);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash of a random password: verifying against it costs what a real check costs. */
let decoy: Promise<string> | undefined;
export const decoyHash = () => (decoy ??= hashPassword(randomBytes(16).toString('hex')).catch((error: unknown) => {
  decoy = undefined;
  throw error;
}));
