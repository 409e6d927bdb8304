import { Injectable, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { ACCESS_DENIED_WHEN_UNRESOLVED, CUSTOMER_ONLY, IS_PUBLIC, PERMISSION, type Permission } from '../common/access.js';
import type { Principal } from '../common/principal.js';
import { AuthService } from './auth.service.js';
import { accessDenied } from './access-denied.js';

/** Whether a principal holds the permission: full administrators always; others by role name. */
export function allows(principal: Principal, { entity, action }: Permission): boolean {
  if (principal.isAdmin) return true;
  const prefix = entity.toLowerCase();
  return principal.roles.has(`${prefix}-${action.toLowerCase()}`) || (action === 'Edit' && principal.roles.has(`${prefix}-update`));
}

interface RoutePolicy {
  isPublic: boolean;
  permission: Permission | undefined;
  customerOnly: boolean;
  accessDeniedWhenUnresolved: boolean;
}

/**
 * The global guard (APP_GUARD): deny by default. Every route needs a Bearer token or Basic credentials
 * unless it is `@Public()`; record routes also need their role (`Product-Create`), and customer
 * routes a customer. Every failure is the contract's 401.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly policies = new WeakMap<object, RoutePolicy>();

  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const policy = this.policyOf(context);
    if (policy.isPublic) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: Principal }>();
    const principal = await this.authenticate(request, policy);
    if (!principal) throw new UnauthorizedException();
    request.user = principal;
    if (policy.permission && !allows(principal, policy.permission)) throw new UnauthorizedException();
    if (policy.customerOnly && principal.coworkerId === null) throw new UnauthorizedException();
    return true;
  }

  /** What a route asks for, read from its metadata once. */
  private policyOf(context: ExecutionContext): RoutePolicy {
    const handler = context.getHandler();
    let policy = this.policies.get(handler);
    if (!policy) {
      const targets = [handler, context.getClass()];
      policy = {
        isPublic: this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets) === true,
        permission: this.reflector.getAllAndOverride<Permission | undefined>(PERMISSION, targets),
        customerOnly: this.reflector.getAllAndOverride<boolean>(CUSTOMER_ONLY, targets) === true,
        accessDeniedWhenUnresolved: this.reflector.getAllAndOverride<boolean>(ACCESS_DENIED_WHEN_UNRESOLVED, targets) === true,
      };
      this.policies.set(handler, policy);
    }
    return policy;
  }

  private async authenticate(request: FastifyRequest, policy: RoutePolicy): Promise<Principal | null> {
    const header = request.headers.authorization;
    if (!header) return null;
    const space = header.indexOf(' ');
    const scheme = header.slice(0, space).toLowerCase();
    if (scheme === 'bearer') {
      const token = header.slice(space + 1).trim();
      const principal = await this.auth.authenticateBearer(token);
      if (!principal && policy.accessDeniedWhenUnresolved) {
        const claims = this.auth.verifyAccessToken(token);
        if (claims && !(await this.auth.userState(Number(claims.sub), true))) throw accessDenied();
      }
      return principal;
    }
    if (scheme === 'basic') return this.auth.authenticateBasic(header.slice(space + 1));
    return null;
  }
}
