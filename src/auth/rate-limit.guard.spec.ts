import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Reflector } from '@nestjs/core';
import { ThrottlerException, type ThrottlerModuleOptions, type ThrottlerStorage } from '@nestjs/throttler';
import { routeContext } from '../http/route-context.js';
import { FixedWindowStorage } from './fixed-window-storage.js';
import { isTokenRoute, RateLimitGuard, TokenRateLimit } from './rate-limit.guard.js';

class Routes {
  read(): void {}
  @TokenRateLimit()
  token(): void {}
}

const handler = (name: 'read' | 'token') => Object.getOwnPropertyDescriptor(Routes.prototype, name)!.value as () => void;

/** As app.module.ts configures it: the token endpoint's own limit and key. */
const options: ThrottlerModuleOptions = {
  throttlers: [{ name: 'default', ttl: 60_000, limit: (context) => (isTokenRoute(context) ? 1 : 2) }],
  generateKey: (context, tracker) => `${isTokenRoute(context) ? 'token' : 'api'}:${tracker}`,
};

function call(guard: RateLimitGuard, route: 'read' | 'token', ip = '192.0.2.1') {
  const headers: Record<string, unknown> = {};
  const reply = { header: (name: string, value: unknown) => ((headers[name.toLowerCase()] = value), reply) };
  const context = routeContext(handler(route), { ip }, reply, Routes);
  return { run: () => guard.canActivate(context), headers };
}

describe('RateLimitGuard', () => {
  it('counts in process without a promise: true and the limit headers, then a 429 with Retry-After', () => {
    const guard = new RateLimitGuard(options, new FixedWindowStorage(), new Reflector());
    const first = call(guard, 'read');
    assert.equal(first.run(), true);
    assert.deepEqual(first.headers, { 'x-ratelimit-limit': 2, 'x-ratelimit-remaining': 1, 'x-ratelimit-reset': 60 });
    assert.equal(call(guard, 'read').run(), true);
    const over = call(guard, 'read');
    assert.throws(() => over.run(), ThrottlerException);
    assert.equal(over.headers['retry-after'], 60);
    // Another address has its own count; the token endpoint its own limit and counter.
    assert.equal(call(guard, 'read', '192.0.2.2').run(), true);
    assert.equal(call(guard, 'token').run(), true);
    assert.throws(() => call(guard, 'token').run(), ThrottlerException);
  });

  it('waits for a shared store (Redis) and answers the same', async () => {
    const local = new FixedWindowStorage();
    const shared: ThrottlerStorage = {
      increment: async (...args: Parameters<ThrottlerStorage['increment']>) => local.incrementNow(args[0], args[1], args[2], args[3]),
    };
    const guard = new RateLimitGuard(options, shared, new Reflector());
    const first = call(guard, 'token');
    const answer = first.run();
    assert.ok(answer instanceof Promise);
    assert.equal(await answer, true);
    assert.equal(first.headers['x-ratelimit-limit'], 1);
    await assert.rejects(async () => call(guard, 'token').run(), ThrottlerException);
  });
});
