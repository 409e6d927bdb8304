import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FairQueue } from '../platform/fair-queue.js';

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
  /** Which door the password came through: Basic credentials on any route, or a login at POST /api/token. */
  door: PasswordDoor;
}

export type PasswordDoor = 'basic' | 'token';

/** The password request the guard made for an HTTP request, for the strategy passport calls with it. */
const passwordRequests = new WeakMap<object, PasswordRequest>();
export const setPasswordRequest = (request: FastifyRequest, reply: FastifyReply, door: PasswordDoor): void =>
  void passwordRequests.set(request, passwordRequestOf(request, reply, door));
export const passwordRequestFor = (request: FastifyRequest): PasswordRequest | undefined => passwordRequests.get(request);

/** The password request of a Fastify request: wanted while unanswered (no deadline 503 yet) and its client connected. */
export const passwordRequestOf = (request: FastifyRequest, reply: FastifyReply, door: PasswordDoor): PasswordRequest => ({
  wanted: () => !reply.sent && !(request.raw?.socket?.destroyed ?? false),
  client: request.ip,
  door,
});

/**
 * Each hash takes 16 MiB and one of libuv's four pool threads for tens of milliseconds: at most two
 * run at once, so logins can neither push the instance's memory past its budget nor take every pool
 * thread from file and DNS work; and no more than the cores this process may run on (its CPU
 * affinity), since hashes beyond those gain no speed, only memory.
 *
 * Password checks never queue without bound, and the queue is fair (docs/api.md §2.2): waiting checks
 * are served round robin across client addresses (fair-queue.ts), so a flood from one address only
 * delays that address. Addresses that logged in successfully on this instance lately have a lane of
 * their own, served in turn with everyone else's: a flood from many random addresses fills the other
 * lanes, not theirs. The others' Basic credentials (checked on any route, the door a flood of guessed
 * credentials comes through) and their logins at POST /api/token wait in lanes apart, served in turn:
 * a flood of Basic credentials from many random addresses leaves a login from an address never seen
 * here waiting for a turn of the lanes, not behind the flood. One address may have PER_ADDRESS_WAITING checks waiting (an office behind one NAT
 * logging in at once); one more is refused with 429; 503 only when a lane's whole queue is full. A
 * waiting check whose request was abandoned is dropped when its turn comes. Hashes for writes (a
 * user's new password) come from authenticated, rate-limited requests and have a lane that may queue
 * further.
 */
const RUNNING = Math.max(1, Math.min(2, availableParallelism()));
const PER_ADDRESS_WAITING = 16;
/**
 * Checks that two hashes at a time finish well within the answer deadline (5 s) even at 150 ms a hash
 * on a busy core: a check that would wait past it is better refused at once.
 */
const LANE_WAITING = 32;
const WRITES = 'writes';
const KNOWN = 'known';
const BASIC = 'basic';
const TOKEN = 'token';

export const passwordHashing = new FairQueue({
  concurrency: RUNNING,
  perClientRunning: RUNNING,
  perClientWaiting: PER_ADDRESS_WAITING,
  laneWaiting: LANE_WAITING,
  lanes: { [WRITES]: { laneWaiting: 512, perClientWaiting: 512 } },
});

/** Addresses whose password check succeeded lately, oldest first (a bounded map: the oldest leave first). */
const knownAddresses = new Map<string, number>();
const KNOWN_FOR_MS = 15 * 60_000;
const KNOWN_MOST = 10_000;

function rememberAddress(client: string): void {
  knownAddresses.delete(client);
  knownAddresses.set(client, Date.now() + KNOWN_FOR_MS);
  if (knownAddresses.size > KNOWN_MOST) knownAddresses.delete(knownAddresses.keys().next().value!);
}

function isKnownAddress(client: string): boolean {
  const until = knownAddresses.get(client);
  if (until === undefined) return false;
  if (until > Date.now()) return true;
  knownAddresses.delete(client);
  return false;
}

/** Where a check for `request` waits: a login by its address (and its lane), a write in the writes' lane. */
const slotOf = (request?: PasswordRequest) =>
  request?.client
    ? {
        lane: isKnownAddress(request.client) ? KNOWN : request.door === 'basic' ? BASIC : TOKEN,
        client: request.client,
        wanted: request.wanted,
      }
    : { lane: WRITES, client: '', wanted: request?.wanted ?? (() => true) };

function derive(password: string, salt: Buffer, options: ScryptOptions, request?: PasswordRequest): Promise<Buffer> {
  return passwordHashing.run(
    slotOf(request),
    () =>
      new Promise<Buffer>((resolve, reject) => {
        scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem: 64 * 1024 * 1024 }, (error, key) =>
          error ? reject(error) : resolve(key),
        );
      }),
  );
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
  const matches = key.length === expected.length && timingSafeEqual(key, expected);
  if (matches && request?.client) rememberAddress(request.client);
  return matches;
}

/** A hash of a random password: verifying against it costs what a real check costs. */
let decoy: Promise<string> | undefined;
export const decoyHash = () =>
  (decoy ??= hashPassword(randomBytes(16).toString('hex')).catch((error: unknown) => {
    decoy = undefined;
    throw error;
  }));
