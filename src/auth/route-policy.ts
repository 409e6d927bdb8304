import { Injectable, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ACCESS_DENIED_WHEN_UNRESOLVED, CUSTOMER_ONLY, IS_PUBLIC, PERMISSION, type Permission } from '../platform/access.js';

/** What a route asks of its caller, from its access decorators (platform/access.ts). */
export interface RoutePolicy {
  isPublic: boolean;
  permission: Permission | undefined;
  customerOnly: boolean;
  accessDeniedWhenUnresolved: boolean;
}

/** The routes' policies, read from their metadata once per route rather than on every request. */
@Injectable()
export class RoutePolicies {
  private readonly policies = new WeakMap<object, RoutePolicy>();

  constructor(private readonly reflector: Reflector) {}

  of(context: ExecutionContext): RoutePolicy {
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
}
