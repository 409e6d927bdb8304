import { once } from 'node:events';
import { Logger, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { Redis } from 'ioredis';
import CircuitBreaker from 'opossum';
import type { AppConfig } from '../config/configuration.js';
import { OutageLog } from '../platform/outage-log.js';
import { FixedWindowStorage } from './fixed-window-storage.js';

interface ThrottlerStorageRecord {
  totalHits: number;
  timeToExpire: number;
  isBlocked: boolean;
  timeToBlockExpire: number;
}

/**
 * One hit, atomically: KEYS[1] counts hits in the window (expires with it), KEYS[2] marks a client
 * blocked for the block duration. ARGV: window ms, limit, block ms. Returns hits, window ms left,
 * blocked (0/1) and block ms left. As the in-memory storage does, counting starts afresh after a block.
 */
const INCREMENT = `
local blockLeft = redis.call('PTTL', KEYS[2])
if blockLeft > 0 then
  return {tonumber(ARGV[2]) + 1, blockLeft, 1, blockLeft}
end
local hits = redis.call('INCR', KEYS[1])
local windowLeft = redis.call('PTTL', KEYS[1])
if windowLeft < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  windowLeft = tonumber(ARGV[1])
end
if hits > tonumber(ARGV[2]) then
  local block = tonumber(ARGV[3])
  if block > 0 then
    redis.call('SET', KEYS[2], '1', 'PX', block)
    redis.call('DEL', KEYS[1])
    return {hits, block, 1, block}
  end
  return {hits, windowLeft, 1, windowLeft}
end
return {hits, windowLeft, 0, 0}
`;

const ANSWERS_AGAIN = 'Redis answers again: rate limits are counted in Redis';

/**
 * The circuit breaker's settings (docs/operations.md, "Redis"). A hit Redis has not answered within
 * `timeoutMs` is counted in this process instead; after `openAfter` failures in a row (or half the hits of
 * the last second) the breaker opens and every hit is counted in this process at once, without asking
 * Redis; every `retryAfterMs` one hit tries Redis again, and its answer closes the breaker.
 */
export interface RedisBreakerSettings {
  timeoutMs: number;
  openAfter: number;
  retryAfterMs: number;
}

export const REDIS_BREAKER: RedisBreakerSettings = { timeoutMs: 50, openAfter: 3, retryAfterMs: 1000 };

type HitArguments = [key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string];

/**
 * @nestjs/throttler's storage in Redis, so every instance behind the load balancer counts the same
 * hits (used when REDIS_URL is set; without it the throttler keeps its in-memory default).
 *
 * Keys live under REDIS_KEY_PREFIX + `throttle:` and expire with their window. Redis is called through
 * a circuit breaker (opossum): when it is unreachable or stalled (a stopped process, a full network
 * buffer) hits are counted in this process (FixedWindowStorage), so the limits still hold per
 * instance and no request waits more than `timeoutMs` on the limiter; Redis is used again as soon as
 * it answers. Redis is never a reason for the API to fail.
 */
export class RedisThrottlerStorage implements ThrottlerStorage, OnModuleInit, OnApplicationShutdown {
  private readonly outage = new OutageLog(new Logger('RateLimit'));
  private readonly notAnswering: string;
  private failuresInARow = 0;
  readonly redis: Redis;
  /** Where hits are counted while the breaker is open (or Redis did not answer a hit in time). */
  private readonly local = new FixedWindowStorage();
  private readonly breaker: CircuitBreaker<HitArguments, ThrottlerStorageRecord>;

  constructor(url: string, keyPrefix: string, settings: RedisBreakerSettings = REDIS_BREAKER) {
    this.redis = new Redis(url, {
      keyPrefix: `${keyPrefix}throttle:`,
      // Fail fast instead of queueing while disconnected: a request never waits on the rate limiter.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
      // The breaker stops waiting after settings.timeoutMs; this frees the command itself later.
      commandTimeout: 1000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    });
    this.redis.on('error', (error: Error) => this.outage.failed(this.notAnswering, error));
    this.redis.defineCommand('throttleHit', { numberOfKeys: 2, lua: INCREMENT });
    this.breaker = new CircuitBreaker((...hit: HitArguments) => this.redisIncrement(...hit), {
      timeout: settings.timeoutMs,
      resetTimeout: settings.retryAfterMs,
      // Also open when half the hits of the last second failed (at least openAfter of them).
      rollingCountTimeout: 1000,
      rollingCountBuckets: 10,
      errorThresholdPercentage: 50,
      volumeThreshold: settings.openAfter,
    });
    this.breaker.fallback((key: string, ttl: number, limit: number, blockDuration: number) =>
      this.local.increment(key, ttl, limit, blockDuration),
    );
    // opossum weighs failures against the successes of its window; a stall shows as failures in a row.
    // An outage is logged once when it begins and once when Redis answers again (outage-log.ts), not
    // at each failure, reconnection attempt or reopening of the breaker while it lasts.
    this.notAnswering = `Redis is not answering: rate limits are counted in this process; trying Redis again every ${settings.retryAfterMs} ms`;
    this.breaker.on('success', () => {
      this.failuresInARow = 0;
      this.outage.recovered(ANSWERS_AGAIN);
    });
    this.breaker.on('failure', (error: unknown) => {
      this.outage.failed(this.notAnswering, error);
      if (++this.failuresInARow >= settings.openAfter && this.breaker.closed) this.breaker.open();
    });
    this.breaker.on('open', () => this.outage.failed(this.notAnswering));
    this.breaker.on('close', () => {
      this.failuresInARow = 0;
      this.outage.recovered(ANSWERS_AGAIN);
    });
  }

  /** Whether hits are counted in Redis now (false: in this process, the breaker is open). */
  get usingRedis(): boolean {
    return this.breaker.closed;
  }

  /** Start-up waits up to two seconds for Redis, so the first requests are counted; then goes on without. */
  async onModuleInit(): Promise<void> {
    await this.ready(2000);
  }

  async ready(withinMs: number): Promise<boolean> {
    if (this.redis.status === 'ready') return true;
    const timeout = AbortSignal.timeout(withinMs);
    return once(this.redis, 'ready', { signal: timeout }).then(
      () => true,
      () => false,
    );
  }

  increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    return this.breaker.fire(key, ttl, limit, blockDuration, throttlerName);
  }

  private async redisIncrement(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    const base = `${throttlerName}:${key}`;
    const redis = this.redis as Redis & { throttleHit(...args: Array<string | number>): Promise<number[]> };
    const [totalHits, windowLeft, blocked, blockLeft] = await redis.throttleHit(`${base}:hits`, `${base}:block`, ttl, limit, blockDuration);
    return {
      totalHits: Number(totalHits),
      timeToExpire: Math.ceil(Number(windowLeft) / 1000),
      isBlocked: Number(blocked) === 1,
      timeToBlockExpire: Math.ceil(Number(blockLeft) / 1000),
    };
  }

  async onApplicationShutdown(): Promise<void> {
    this.breaker.shutdown();
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }
}

/** The rate limiter's storage: Redis when REDIS_URL is set, else null (the throttler's in-memory default). */
export const RATE_LIMIT_STORAGE = Symbol('RATE_LIMIT_STORAGE');

@Module({
  providers: [
    {
      provide: RATE_LIMIT_STORAGE,
      inject: [ConfigService],
      useFactory: (config: ConfigService<AppConfig, true>) => {
        const url = config.get('REDIS_URL', { infer: true });
        return url ? new RedisThrottlerStorage(url, config.get('REDIS_KEY_PREFIX', { infer: true })) : null;
      },
    },
  ],
  exports: [RATE_LIMIT_STORAGE],
})
export class RateLimitStorageModule {}
