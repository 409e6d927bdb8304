import type { ThrottlerStorage } from '@nestjs/throttler';

/** What a count answers (the throttler's ThrottlerStorageRecord). */
export type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

interface Window {
  hits: number;
  resetAt: number;
  blockedUntil: number;
}

/**
 * In-process rate-limit counters: one fixed window per key, O(1) per request. (The throttler's own
 * in-memory storage keeps a timestamp per hit and prunes them on every request, which under load
 * cost a tenth of a request's CPU and grew with the limit.)
 */
export class FixedWindowStorage implements ThrottlerStorage {
  private readonly windows = new Map<string, Window>();
  // Forgets finished windows now and then; unref'd, so it never keeps the process alive.
  private readonly sweeper = setInterval(() => this.sweep(), 60_000).unref();

  async increment(key: string, ttl: number, limit: number, blockDuration: number): Promise<ThrottlerStorageRecord> {
    return this.incrementNow(key, ttl, limit, blockDuration);
  }

  /** `increment` answered at once: the rate-limit guard then lets a request on without a turn of the event loop. */
  incrementNow(key: string, ttl: number, limit: number, blockDuration: number): ThrottlerStorageRecord {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || (window.resetAt <= now && window.blockedUntil <= now)) {
      window = { hits: 0, resetAt: now + ttl, blockedUntil: 0 };
      this.windows.set(key, window);
    }
    window.hits += 1;
    if (window.blockedUntil <= now && window.hits > limit) window.blockedUntil = now + blockDuration;
    const isBlocked = window.blockedUntil > now;
    return {
      totalHits: window.hits,
      timeToExpire: Math.max(0, Math.ceil((window.resetAt - now) / 1000)),
      isBlocked,
      timeToBlockExpire: isBlocked ? Math.ceil((window.blockedUntil - now) / 1000) : 0,
    };
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, window] of this.windows) if (window.resetAt <= now && window.blockedUntil <= now) this.windows.delete(key);
  }
}
