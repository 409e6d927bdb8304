import { ModuleRef } from '@nestjs/core';
import { Injectable, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../platform/principal.js';
import { accessDenied } from './access-denied.js';
import { AuthService } from './auth.service.js';
import { BasicPassportGuard } from './passport.guards.js';
import { setPasswordRequest } from './passwords.js';
import { RateLimitGuard } from './rate-limit.guard.js';
import { RoutePolicies, type RoutePolicy } from './route-policy.js';

/** A request with a principal goes on, with it as `request.user`; one without is the contract's 401. */
function admit(request: FastifyRequest & { user?: Principal }, principal: Principal | null): true {
  if (!principal) throw new UnauthorizedException();
  request.user = principal;
  return true;
}

/**
 * The global guard after the rate limit (APP_GUARD): deny by default. Every route needs a Bearer token or Basic
 * credentials unless it is `@Public()`; a failure is the contract's 401 (docs/api.md §2.2). Roles are
 * RolesGuard's, next.
 *
 * Bearer tokens are checked here directly (a signature check and the user's cached state). Basic
 * credentials verified within the last minute are answered from AuthService's cache before any
 * strategy runs; only the others go through passport (BasicPassportGuard, passport-http).
 */
@Injectable()
export class AuthenticationGuard implements CanActivate {
  /**
   * Requests that arrive together with the same Basic credentials share one check: a burst of them
   * costs one scrypt (16 MiB and a pool thread each), and the same guess counts once.
   */
  private readonly basicChecks = new Map<string, Promise<Principal | null>>();

  constructor(
    private readonly policies: RoutePolicies,
    private readonly auth: AuthService,
    private readonly basic: BasicPassportGuard,
    private readonly modules: ModuleRef,
  ) {}

  /** The rate limit (AppModule's guard, found when first needed). */
  private get rateLimit(): RateLimitGuard {
    return (this.limiter ??= this.modules.get<RateLimitGuard>(RateLimitGuard, { strict: false }));
  }

  private limiter: RateLimitGuard | undefined;

  /**
   * Synchronous when the credential is known and its user's state cached (nearly every request): the
   * record router then goes on to the next guard without a turn of the event loop.
   */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const policy = this.policies.of(context);
    if (policy.isPublic) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: Principal }>();
    const principal = this.authenticate(context, request, policy);
    return principal instanceof Promise ? principal.then((found) => admit(request, found)) : admit(request, principal);
  }

  private authenticate(
    context: ExecutionContext,
    request: FastifyRequest,
    policy: RoutePolicy,
  ): Principal | null | Promise<Principal | null> {
    const header = request.headers.authorization;
    if (!header) return null;
    const space = header.indexOf(' ');
    const scheme = header.slice(0, space).toLowerCase();
    if (scheme === 'bearer') {
      const token = header.slice(space + 1).trim();
      const principal = this.auth.authenticateBearer(token);
      if (principal instanceof Promise || (!principal && policy.accessDeniedWhenUnresolved))
        return this.bearerOutcome(token, principal, policy);
      return principal;
    }
    if (scheme === 'basic') {
      const key = this.auth.basicKey(header.slice(space + 1));
      const remembered = this.auth.rememberedBasic(key);
      return remembered instanceof Promise || !remembered ? this.authenticateBasic(context, key, remembered) : remembered;
    }
    return null;
  }

  /** A token whose user's state had to be read, or that resolved to nobody on a route that tells why (403). */
  private async bearerOutcome(
    token: string,
    authenticated: Principal | null | Promise<Principal | null>,
    policy: RoutePolicy,
  ): Promise<Principal | null> {
    const principal = await authenticated;
    if (!principal && policy.accessDeniedWhenUnresolved) {
      const claims = this.auth.verifyAccessToken(token);
      if (claims && !(await this.auth.userState(Number(claims.sub), true))) throw accessDenied();
    }
    return principal;
  }

  private async authenticateBasic(
    context: ExecutionContext,
    key: string,
    rememberedNow: Promise<Principal | null> | null,
  ): Promise<Principal | null> {
    const remembered = await rememberedNow;
    if (remembered) return remembered;
    let check = this.basicChecks.get(key);
    if (!check) {
      const http = context.switchToHttp();
      const request = http.getRequest<FastifyRequest>();
      const reply = http.getResponse<FastifyReply>();
      await this.rateLimit.countPasswordCheck(request, reply);
      // Joined while the limit was counted: the same credential is checked once.
      const joined = this.basicChecks.get(key);
      if (joined) return joined;
      setPasswordRequest(request, reply, 'basic');
      check = this.verifyBasic(context, key).finally(() => this.basicChecks.delete(key));
      this.basicChecks.set(key, check);
    }
    return check;
  }

  private async verifyBasic(context: ExecutionContext, key: string): Promise<Principal | null> {
    const login = await this.basic.verify(context);
    if (!login) return null;
    this.auth.rememberBasic(key, login);
    return login.principal;
  }
}
