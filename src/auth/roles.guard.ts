import { Injectable, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { allows } from '../platform/access.js';
import type { Principal } from '../platform/principal.js';
import { RoutePolicies } from './route-policy.js';

export { allows };

/**
 * The second global guard (APP_GUARD), after AuthenticationGuard has put the principal on the request:
 * record routes need their role (`Product-Create`), customer routes a customer. A refusal is the
 * contract's 401, as a failed authentication is (docs/api.md §2.2).
 */
@Injectable()
export class RolesGuard implements CanActivate {
  constructor(private readonly policies: RoutePolicies) {}

  canActivate(context: ExecutionContext): boolean {
    const policy = this.policies.of(context);
    if (policy.isPublic) return true;
    const principal = context.switchToHttp().getRequest<FastifyRequest & { user?: Principal }>().user;
    if (!principal) throw new UnauthorizedException();
    if (policy.permission && !allows(principal, policy.permission)) throw new UnauthorizedException();
    if (policy.customerOnly && principal.coworkerId === null) throw new UnauthorizedException();
    return true;
  }
}
