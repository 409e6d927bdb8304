import { Injectable, SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerException,
  type ThrottlerModuleOptions,
  type ThrottlerOptions,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FixedWindowStorage, type ThrottlerStorageRecord } from './fixed-window-storage.js';

export const TOKEN_RATE_LIMIT = 'rate-limit:token';
const THROTTLER_SKIP = 'THROTTLER:SKIP';

/** The token endpoint has its own, lower limit (RATE_LIMIT_TOKEN_PER_MINUTE). */
export const TokenRateLimit = () => SetMetadata(TOKEN_RATE_LIMIT, true);

const tokenRoutes = new WeakMap<object, boolean>();

/**
 * Whether a route counts against the token endpoint's limit. Read from its metadata once per handler:
 * the throttler's `limit` and `generateKey` ask on every request, and reflect-metadata's lookup
 * (a map per target, then per key, up the prototype chain) cost more than the count itself.
 */
export function isTokenRoute(context: ExecutionContext): boolean {
  const handler = context.getHandler();
  let known = tokenRoutes.get(handler);
  if (known === undefined) tokenRoutes.set(handler, (known = Reflect.getMetadata(TOKEN_RATE_LIMIT, handler) === true));
  return known;
}

/** A route of the token endpoint's limit, for login attempts made elsewhere (Basic credentials). */
class TokenAttempts {
  @TokenRateLimit()
  attempt(): void {}
}
const TOKEN_ATTEMPT = {
  getHandler: () => Object.getOwnPropertyDescriptor(TokenAttempts.prototype, 'attempt')?.value as () => void,
  getClass: () => TokenAttempts,
} as unknown as ExecutionContext;

interface RoutePolicy {
  skip: boolean;
  limit: number;
  key: (tracker: string) => string;
}

/**
 * Requests per client address per minute (docs/api.md §2.2): one counter for /api/token and one for
 * everything else, not one per route. Over the limit: 429 with Retry-After. It runs the throttler
 * module's one throttler with its options, storage (in process, or Redis) and @SkipThrottle(), and
 * sends @nestjs/throttler's headers; what a route needs is worked out once per route, not per request.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly throttler: ThrottlerOptions;
  private readonly generateKey: ((context: ExecutionContext, tracker: string, name: string) => string) | undefined;
  private readonly policies = new WeakMap<object, RoutePolicy>();

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    private readonly reflector: Reflector,
  ) {
    this.throttler = (Array.isArray(options) ? options : options.throttlers)[0];
    this.generateKey = (Array.isArray(options) ? undefined : options.generateKey) ?? this.throttler.generateKey;
  }

  /** Synchronous with the in-process counters; a promise with a shared store (Redis). */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const policy = this.policyOf(context);
    if (policy.skip) return true;
    const http = context.switchToHttp();
    return this.count(policy, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
  }

  /**
   * A Basic credential that must be checked (not one verified within the last minute) counts as a
   * login attempt against the /api/token limit of its address (docs/api.md §2.2), counted before the
   * check: passwords are guessed no faster through Basic than through the token endpoint, and a
   * flood of them is refused with 429 without costing a password hash each.
   */
  async countPasswordCheck(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    await this.count(this.policyOf(TOKEN_ATTEMPT), request, reply, false);
  }

  private count(policy: RoutePolicy, request: FastifyRequest, reply: FastifyReply, headers = true): boolean | Promise<boolean> {
    const ttl = this.throttler.ttl as number;
    const key = policy.key(request.ip);
    if (this.storage instanceof FixedWindowStorage)
      return this.answer(this.storage.incrementNow(key, ttl, policy.limit, ttl), policy, reply, headers);
    return this.storage
      .increment(key, ttl, policy.limit, ttl, this.throttler.name ?? 'default')
      .then((counted) => this.answer(counted, policy, reply, headers));
  }

  /** Over the limit: 429 with Retry-After; else the request goes on, with the limit's headers unless `headers` is false. */
  private answer(counted: ThrottlerStorageRecord, policy: RoutePolicy, reply: FastifyReply, headers: boolean): true {
    const { totalHits, timeToExpire, isBlocked, timeToBlockExpire } = counted;
    if (isBlocked) {
      void reply.header('Retry-After', timeToBlockExpire);
      throw new ThrottlerException();
    }
    if (!headers) return true;
    // Lower-case names: Fastify's own spelling, kept without a new string per request (http-headers.ts).
    void reply.header('x-ratelimit-limit', policy.limit);
    void reply.header('x-ratelimit-remaining', Math.max(0, policy.limit - totalHits));
    void reply.header('x-ratelimit-reset', timeToExpire);
    return true;
  }

  private policyOf(context: ExecutionContext): RoutePolicy {
    const handler = context.getHandler();
    let policy = this.policies.get(handler);
    if (!policy) {
      const name = this.throttler.name ?? 'default';
      const limit = this.throttler.limit as number | ((context: ExecutionContext) => number);
      const generateKey = this.generateKey;
      // The route alone decides the limit and the key's prefix; no request is kept.
      const controller = context.getClass();
      const route = { getHandler: () => handler, getClass: () => controller } as unknown as ExecutionContext;
      policy = {
        skip: this.reflector.getAllAndOverride<boolean>(THROTTLER_SKIP + name, [handler, controller]) === true,
        limit: typeof limit === 'function' ? limit(route) : limit,
        key: generateKey ? (tracker) => generateKey(route, tracker, name) : (tracker) => `${name}:${tracker}`,
      };
      this.policies.set(handler, policy);
    }
    return policy;
  }
}
