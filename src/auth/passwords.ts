import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { availableParallelism } from 'node:os';
import pLimit from 'p-limit';

// Passwords are stored as salted scrypt hashes (Node's crypto), with their parameters so they can be
// raised later without invalidating stored hashes: scrypt$N$r$p$salt$hash (base64url).

const PARAMETERS = { N: 16384, r: 8, p: 1 };
const KEY_LENGTH = 64;

// Each hash takes 16 MiB and one of libuv's four pool threads for tens of milliseconds: at most two
// run at once (a burst of logins waits its turn), so logins can neither push the instance's memory
// past its budget nor take every pool thread from file and DNS work; and no more than the cores this
// process may run on (its CPU affinity), since hashes beyond those gain no speed, only memory.
export const passwordHashing = pLimit(Math.max(1, Math.min(2, availableParallelism())));

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return passwordHashing(() => new Promise<Buffer>((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem: 64 * 1024 * 1024 }, (error, key) => (error ? reject(error) : resolve(key)));
  }));
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMETERS);
  return ['scrypt', PARAMETERS.N, PARAMETERS.r, PARAMETERS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(N), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash of a random password: verifying against it costs what a real check costs. */
let decoy: Promise<string> | undefined;
export const decoyHash = () => (decoy ??= hashPassword(randomBytes(16).toString('hex')));
