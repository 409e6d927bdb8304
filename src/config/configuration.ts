import { hash, randomBytes } from 'node:crypto';
import { closeSync, constants, existsSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, join } from 'node:path';

/**
 * Where the records live: the embedded SQLite file (or memory) or a MySQL/MariaDB server. `mariadb://`
 * selects TypeORM's MariaDB dialect (the same driver; it reads MariaDB's catalogue correctly, so
 * `migration:generate` sees no false differences there).
 */
export type DatabaseTarget =
  { type: 'sqlite'; database: string } | { type: 'mysql'; dialect: 'mysql' | 'mariadb'; url: string; database: string };

/**
 * Which proxies' X-Forwarded-For is believed (Fastify's `trustProxy`): false (none, the default: the
 * client address is the TCP peer), true (any), a hop count, or a list of addresses and CIDR ranges.
 */
export type TrustProxy = boolean | number | string[];

/** Every setting the service reads, typed and validated once at start-up (docs/api.md §4). */
export interface AppConfig {
  NODE_ENV: 'development' | 'production' | 'test';
  PORT: number;
  /** The address to listen on (0.0.0.0: every interface; 127.0.0.1 keeps it local). */
  HOST: string;
  DATABASE_URL: string;
  database: DatabaseTarget;
  JWT_SECRET: string;
  ACCESS_TOKEN_TTL_SECONDS: number;
  LOG_LEVEL: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  BOOTSTRAP_ADMIN_EMAIL: string | undefined;
  BOOTSTRAP_ADMIN_PASSWORD: string | undefined;
  RATE_LIMIT_PER_MINUTE: number;
  RATE_LIMIT_TOKEN_PER_MINUTE: number;
  REDIS_URL: string | undefined;
  REDIS_KEY_PREFIX: string;
  TRUST_PROXY: TrustProxy;
  DATABASE_POOL_SIZE: number;
  REQUEST_TIMEOUT_MS: number;
  /** Webhook deliveries may go to loopback, private and other non-public addresses (tests, closed networks). */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: boolean;
  /** Seconds to wait before each retry of a failed delivery. */
  WEBHOOK_RETRY_DELAYS: number[];
  /** Consecutive failed attempts after which a hook is deactivated. */
  WEBHOOK_MAX_CONSECUTIVE_FAILURES: number;
  /** Earlier JWT secrets, still accepted when verifying access tokens until those expire (docs/operations.md, "Secret rotation"). */
  JWT_PREVIOUS_SECRETS: string[];
  /** Browser origins allowed by CORS (none by default: a preflight from any origin gets no CORS headers). */
  CORS_ORIGINS: string[];
  /** Serve Prometheus metrics at /metrics on PORT (off by default). */
  METRICS_ENABLED: boolean;
  /** Serve them on this port of HOST instead (and not on PORT); setting it turns metrics on. */
  METRICS_PORT: number | undefined;
  /** Run pending migrations at start-up (default); false leaves them to `npm run migrate` (a job). */
  MIGRATIONS_RUN: boolean;
  /** Seconds between an instance's looks for contract periods due (automatic billing runs); 0 turns them off. */
  BILLING_RUN_INTERVAL_SECONDS: number;
}

/**
 * Secrets that may come from a file instead (Docker and Kubernetes secrets): `NAME_FILE` names it, its
 * content (without the trailing newline) is the value. Setting both is an error.
 */
export const FILE_VARIABLES = ['JWT_SECRET', 'JWT_PREVIOUS_SECRETS', 'DATABASE_URL', 'REDIS_URL', 'BOOTSTRAP_ADMIN_PASSWORD'] as const;

/**
 * Every environment variable the service reads (the configuration module's, the `_FILE` variants and
 * the process settings of src/runtime-settings.ts). Deployment files set only these (test/compose.spec.ts).
 */
export const ENVIRONMENT_VARIABLES: readonly string[] = [
  'NODE_ENV',
  'PORT',
  'HOST',
  'DATABASE_URL',
  'JWT_SECRET',
  'JWT_PREVIOUS_SECRETS',
  'ACCESS_TOKEN_TTL_SECONDS',
  'LOG_LEVEL',
  'BOOTSTRAP_ADMIN_EMAIL',
  'BOOTSTRAP_ADMIN_PASSWORD',
  'RATE_LIMIT_PER_MINUTE',
  'RATE_LIMIT_TOKEN_PER_MINUTE',
  'REDIS_URL',
  'REDIS_KEY_PREFIX',
  'TRUST_PROXY',
  'DATABASE_POOL_SIZE',
  'REQUEST_TIMEOUT_MS',
  'WEBHOOK_ALLOW_PRIVATE_TARGETS',
  'WEBHOOK_RETRY_DELAYS',
  'WEBHOOK_MAX_CONSECUTIVE_FAILURES',
  'CORS_ORIGINS',
  'METRICS_ENABLED',
  'METRICS_PORT',
  'MIGRATIONS_RUN',
  'BILLING_RUN_INTERVAL_SECONDS',
  ...FILE_VARIABLES.map((name) => `${name}_FILE`),
  'NODE_OPTIONS',
  'MALLOC_ARENA_MAX',
  'MALLOC_MMAP_THRESHOLD_',
];

/** A secret file is small: a longer one (or a device such as /dev/zero, which never ends) is refused unread. */
export const SECRET_FILE_MOST_BYTES = 64 * 1024;

/**
 * Reads a `NAME_FILE`: only a regular file, and at most SECRET_FILE_MOST_BYTES of it (one byte more is
 * read to tell a longer file), so start-up never hangs on a device or a pipe, nor reads a huge file.
 */
function readSecretFile(variable: string, path: string): string {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    if (!fstatSync(descriptor).isFile()) throw new ConfigurationError(`${variable}: ${path} is not a regular file`);
    const buffer = Buffer.alloc(SECRET_FILE_MOST_BYTES + 1);
    let length = 0;
    for (let read = -1; read !== 0 && length < buffer.length; length += read)
      read = readSync(descriptor, buffer, length, buffer.length - length, null);
    if (length > SECRET_FILE_MOST_BYTES)
      throw new ConfigurationError(`${variable}: ${path} is longer than ${SECRET_FILE_MOST_BYTES} bytes`);
    return buffer.subarray(0, length).toString('utf8');
  } catch (error) {
    if (error instanceof ConfigurationError) throw error;
    throw new ConfigurationError(`${variable}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/** The environment with each `NAME_FILE` read into NAME (the values read shadow the given environment's). */
export function readSecretFiles(env: Record<string, unknown>): Record<string, unknown> {
  const resolved = Object.create(env) as Record<string, unknown>;
  for (const name of FILE_VARIABLES) {
    const path = String(env[`${name}_FILE`] ?? '').trim();
    if (!path) continue;
    if (String(env[name] ?? '') !== '') throw new ConfigurationError(`${name} and ${name}_FILE are both set: set only one of them`);
    resolved[name] = readSecretFile(`${name}_FILE`, path).replace(/(\r?\n)+$/, '');
  }
  return resolved;
}

/** The `kid` of tokens signed with a secret: a hash of it (never the secret), so verifiers pick the key. */
export function jwtKeyId(secret: string): string {
  return hash('sha256', `coworking-api jwt kid\u0000${secret}`, 'base64url').slice(0, 16);
}

function previousSecrets(raw: unknown, current: string): string[] {
  const secrets = String(raw ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (secrets.some((secret) => secret.length < 32))
    throw new ConfigurationError('JWT_PREVIOUS_SECRETS: each secret must be at least 32 characters');
  return [...new Set(secrets)].filter((secret) => secret !== current);
}

/** CORS_ORIGINS: origins as browsers send them (scheme://host[:port]), comma-separated. */
export function parseCorsOrigins(raw: unknown): string[] {
  const origins = String(raw ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  for (const origin of origins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      /* refused below */
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin) {
      throw new ConfigurationError(
        `CORS_ORIGINS must be origins such as https://app.example.com separated by commas (scheme, host and port only), got "${origin}"`,
      );
    }
  }
  return origins;
}

export class ConfigurationError extends Error {}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const NODE_ENVS = ['development', 'production', 'test'] as const;

function integer(env: Record<string, unknown>, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const text = String(raw).trim();
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) {
    throw new ConfigurationError(`${name} must be an integer from ${min} to ${max}, got "${text}"`);
  }
  return value;
}

function oneOf<T extends string>(env: Record<string, unknown>, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = String(raw).trim().toLowerCase() as T;
  if (!allowed.includes(value)) throw new ConfigurationError(`${name} must be one of ${allowed.join(', ')}, got "${String(raw)}"`);
  return value;
}

export function parseDatabaseUrl(url: string): DatabaseTarget {
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    if (!path) throw new ConfigurationError('DATABASE_URL: sqlite needs a path, e.g. sqlite:data/coworking.sqlite or sqlite::memory:');
    return { type: 'sqlite', database: path };
  }
  if (url.startsWith('mysql://') || url.startsWith('mariadb://')) {
    let parsed: URL;
    try {
      parsed = new URL(url.replace(/^mariadb:/, 'mysql:'));
    } catch {
      throw new ConfigurationError('DATABASE_URL is not a valid mysql:// URL');
    }
    const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
    if (!parsed.hostname || !database)
      throw new ConfigurationError('DATABASE_URL must name a host and a database: mysql://user:password@host:3306/db');
    const dialect = url.startsWith('mariadb://') ? 'mariadb' : 'mysql';
    return { type: 'mysql', dialect, url: parsed.toString(), database };
  }
  throw new ConfigurationError(`DATABASE_URL must start with sqlite: or mysql://, got "${url.split(':')[0]}:…"`);
}

function isCidr(text: string): boolean {
  const [address, bits, extra] = text.split('/');
  const family = isIP(address);
  if (!family || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

export function parseTrustProxy(raw: unknown): TrustProxy {
  const text = String(raw ?? '').trim();
  if (!text || /^(false|0|no|off)$/i.test(text)) return false;
  if (/^(true|yes|on)$/i.test(text)) return true;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 32) throw new ConfigurationError(`TRUST_PROXY hop count must be at most 32, got "${text}"`);
    return hops;
  }
  const ranges = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const bad = ranges.find((range) => !['loopback', 'linklocal', 'uniquelocal'].includes(range) && !isCidr(range));
  if (bad !== undefined || !ranges.length) {
    throw new ConfigurationError(
      `TRUST_PROXY must be false, true, a hop count, or addresses/CIDR ranges separated by commas (e.g. 127.0.0.1,10.0.0.0/8), got "${bad ?? text}"`,
    );
  }
  return ranges;
}

function flag(env: Record<string, unknown>, name: string, fallback: boolean): boolean {
  const raw = String(env[name] ?? '')
    .trim()
    .toLowerCase();
  if (!raw) return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigurationError(`${name} must be true or false, got "${raw}"`);
}

export const DEFAULT_WEBHOOK_RETRY_DELAYS = [5, 60, 300, 1800, 7200, 18000, 36000, 36000, 50400];

/** Seconds between attempts, comma-separated (fractions allowed, at most a week each). */
export function parseRetryDelays(raw: unknown): number[] {
  const text = String(raw ?? '').trim();
  if (!text) return DEFAULT_WEBHOOK_RETRY_DELAYS;
  const delays = text.split(',').map((part) => part.trim());
  if (delays.length > 50 || delays.some((part) => !/^\d+(\.\d+)?$/.test(part) || Number(part) > 7 * 24 * 3600)) {
    throw new ConfigurationError(
      `WEBHOOK_RETRY_DELAYS must be up to 50 numbers of seconds separated by commas (e.g. 5,60,300), got "${text}"`,
    );
  }
  return delays.map(Number);
}

/** Outside production a development secret is generated once and kept beside the SQLite file. */
function developmentSecret(database: DatabaseTarget): string {
  if (database.type !== 'sqlite' || database.database === ':memory:') return randomBytes(32).toString('base64url');
  const file = join(dirname(database.database), '.jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** HOST: an IPv4 or IPv6 address, or a host name (default 0.0.0.0, every interface). */
function listenAddress(raw: unknown): string {
  const host = String(raw ?? '').trim();
  if (!host) return '0.0.0.0';
  if (!isIP(host) && !/^(?=.{1,253}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(host)) {
    throw new ConfigurationError(`HOST must be an IP address or a host name, got "${host}"`);
  }
  return host;
}

/** Validates the environment; a bad value throws a ConfigurationError that names the variable. */
export function validateEnvironment(given: Record<string, unknown>): AppConfig {
  const env = readSecretFiles(given);
  const NODE_ENV = oneOf(env, 'NODE_ENV', NODE_ENVS, 'development');
  const DATABASE_URL = String(env.DATABASE_URL ?? '').trim() || 'sqlite:data/coworking.sqlite';
  const database = parseDatabaseUrl(DATABASE_URL);
  let JWT_SECRET = String(env.JWT_SECRET ?? '');
  if (!JWT_SECRET) {
    if (NODE_ENV === 'production') throw new ConfigurationError('JWT_SECRET is required when NODE_ENV=production');
    JWT_SECRET = developmentSecret(database);
  } else if (JWT_SECRET.length < 32) {
    throw new ConfigurationError('JWT_SECRET must be at least 32 characters');
  }
  const email = String(env.BOOTSTRAP_ADMIN_EMAIL ?? '').trim();
  const password = String(env.BOOTSTRAP_ADMIN_PASSWORD ?? '');
  if (Boolean(email) !== Boolean(password)) {
    throw new ConfigurationError('BOOTSTRAP_ADMIN_EMAIL and BOOTSTRAP_ADMIN_PASSWORD must be set together');
  }
  const redis = String(env.REDIS_URL ?? '').trim();
  if (redis && !/^rediss?:\/\//.test(redis)) throw new ConfigurationError('REDIS_URL must start with redis:// or rediss://');
  const redisPrefix = String(env.REDIS_KEY_PREFIX ?? '').trim() || 'coworking:';
  if (!/^[\w:.-]{1,64}$/.test(redisPrefix)) throw new ConfigurationError('REDIS_KEY_PREFIX must be 1 to 64 letters, digits, or _ : . -');
  const config: AppConfig = {
    NODE_ENV,
    PORT: integer(env, 'PORT', 3000, 0, 65535),
    HOST: listenAddress(env.HOST),
    DATABASE_URL,
    database,
    JWT_SECRET,
    ACCESS_TOKEN_TTL_SECONDS: integer(env, 'ACCESS_TOKEN_TTL_SECONDS', 3600, 60, 7 * 24 * 3600),
    LOG_LEVEL: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    BOOTSTRAP_ADMIN_EMAIL: email || undefined,
    BOOTSTRAP_ADMIN_PASSWORD: password || undefined,
    RATE_LIMIT_PER_MINUTE: integer(env, 'RATE_LIMIT_PER_MINUTE', 6000, 1, 10_000_000),
    RATE_LIMIT_TOKEN_PER_MINUTE: integer(env, 'RATE_LIMIT_TOKEN_PER_MINUTE', 300, 1, 10_000_000),
    REDIS_URL: redis || undefined,
    REDIS_KEY_PREFIX: redisPrefix,
    TRUST_PROXY: parseTrustProxy(env.TRUST_PROXY),
    DATABASE_POOL_SIZE: integer(env, 'DATABASE_POOL_SIZE', 10, 1, 200),
    REQUEST_TIMEOUT_MS: integer(env, 'REQUEST_TIMEOUT_MS', 10_000, 100, 600_000),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: flag(env, 'WEBHOOK_ALLOW_PRIVATE_TARGETS', false),
    WEBHOOK_RETRY_DELAYS: parseRetryDelays(env.WEBHOOK_RETRY_DELAYS),
    WEBHOOK_MAX_CONSECUTIVE_FAILURES: integer(env, 'WEBHOOK_MAX_CONSECUTIVE_FAILURES', 10, 1, 1000),
    JWT_PREVIOUS_SECRETS: previousSecrets(env.JWT_PREVIOUS_SECRETS, JWT_SECRET),
    CORS_ORIGINS: parseCorsOrigins(env.CORS_ORIGINS),
    METRICS_ENABLED: flag(env, 'METRICS_ENABLED', false) || (env.METRICS_PORT !== undefined && env.METRICS_PORT !== ''),
    METRICS_PORT: env.METRICS_PORT === undefined || env.METRICS_PORT === '' ? undefined : integer(env, 'METRICS_PORT', 0, 1, 65535),
    MIGRATIONS_RUN: flag(env, 'MIGRATIONS_RUN', true),
    BILLING_RUN_INTERVAL_SECONDS: integer(env, 'BILLING_RUN_INTERVAL_SECONDS', 3600, 0, 31_536_000),
  };
  if (config.METRICS_PORT !== undefined && config.METRICS_PORT === config.PORT)
    throw new ConfigurationError('METRICS_PORT must differ from PORT');
  return config;
}

/** The process's configuration, or, for a bad variable, its message on standard error and exit code 1. */
export function environmentOrExit(): AppConfig {
  try {
    return validateEnvironment(process.env);
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    console.error(`Configuration error: ${error.message}`);
    process.exit(1);
  }
}
