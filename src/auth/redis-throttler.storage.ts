import { once } from 'node:events';
import { Logger, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { Redis } from 'ioredis';
import type { AppConfig } from '../config/configuration.js';

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

const WARN_EVERY_MS = 10_000;

/**
 * @nestjs/throttler's storage in Redis, so every instance behind the load balancer counts the same
 * hits (used when REDIS_URL is set; without it the throttler keeps its in-memory default).
 *
 * Keys live under REDIS_KEY_PREFIX + `throttle:` and expire with their window. When Redis cannot be
 * reached the limiter fails open: the request is let through and a warning is logged (at most every
 * ten seconds) — an unreachable Redis must not take the API down; the client reconnects by itself.
 */
export class RedisThrottlerStorage implements ThrottlerStorage, OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private lastWarning = 0;
  readonly redis: Redis;

  constructor(url: string, keyPrefix: string) {
    this.redis = new Redis(url, {
      keyPrefix: `${keyPrefix}throttle:`,
      // Fail fast instead of queueing while disconnected: a request never waits on the rate limiter.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
      commandTimeout: 1000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    });
    this.redis.on('error', (error: Error) => this.warn('Redis is unreachable', error));
    this.redis.defineCommand('throttleHit', { numberOfKeys: 2, lua: INCREMENT });
  }

  /** Start-up waits up to two seconds for Redis, so the first requests are counted; then goes on without. */
  async onModuleInit(): Promise<void> {
    await this.ready(2000);
  }

  async ready(withinMs: number): Promise<boolean> {
    if (this.redis.status === 'ready') return true;
    const timeout = AbortSignal.timeout(withinMs);
    return once(this.redis, 'ready', { signal: timeout }).then(() => true, () => false);
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    const base = `${throttlerName}:${key}`;
    try {
      const redis = this.redis as Redis & { throttleHit(...args: Array<string | number>): Promise<number[]> };
      const [totalHits, windowLeft, blocked, blockLeft] = await redis.throttleHit(`${base}:hits`, `${base}:block`, ttl, limit, blockDuration);
      return {
        totalHits: Number(totalHits),
        timeToExpire: Math.ceil(Number(windowLeft) / 1000),
        isBlocked: Number(blocked) === 1,
        timeToBlockExpire: Math.ceil(Number(blockLeft) / 1000),
      };
    } catch (error) {
      this.warn('rate limit not applied: Redis is unreachable (failing open)', error);
      return { totalHits: 0, timeToExpire: Math.ceil(ttl / 1000), isBlocked: false, timeToBlockExpire: 0 };
    }
  }

  private warn(message: string, error: unknown): void {
    const now = Date.now();
    if (now - this.lastWarning < WARN_EVERY_MS) return;
    this.lastWarning = now;
    this.logger.warn(`${message}: ${error instanceof Error ? error.message : String(error)}`);
  }

  async onApplicationShutdown(): Promise<void> {
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
  providers: [{
    provide: RATE_LIMIT_STORAGE,
    inject: [ConfigService],
    useFactory: (config: ConfigService<AppConfig, true>) => {
      const url = config.get('REDIS_URL', { infer: true });
      return url ? new RedisThrottlerStorage(url, config.get('REDIS_KEY_PREFIX', { infer: true })) : null;
    },
  }],
  exports: [RATE_LIMIT_STORAGE],
})
export class RateLimitStorageModule {}
