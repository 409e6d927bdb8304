import { Injectable, SetMetadata, type ExecutionContext } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import type { FastifyRequest } from 'fastify';

export const TOKEN_RATE_LIMIT = 'rate-limit:token';

/** The token endpoint has its own, lower limit (RATE_LIMIT_TOKEN_PER_MINUTE). */
export const TokenRateLimit = () => SetMetadata(TOKEN_RATE_LIMIT, true);

export const isTokenRoute = (context: ExecutionContext): boolean => Reflect.getMetadata(TOKEN_RATE_LIMIT, context.getHandler()) === true;

/**
 * Requests per client address per minute (contract §2.2): one counter for /api/token and one for
 * everything else, not one per route. Over the limit: 429 with Retry-After.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override async getTracker(request: Record<string, unknown>): Promise<string> {
    return (request as unknown as FastifyRequest).ip;
  }
}
