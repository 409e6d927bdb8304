import { applyDecorators, createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import { ApiBasicAuth, ApiBearerAuth, ApiExtension, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { Principal, RecordAction } from './principal.js';

export const IS_PUBLIC = 'access:public';
export const PERMISSION = 'access:permission';
export const CUSTOMER_ONLY = 'access:customer';
export const ACCESS_DENIED_WHEN_UNRESOLVED = 'access:denied-when-unresolved';

/** The permission a route needs: a role `<Entity>-<Action>`, or being a full administrator. */
export interface Permission {
  entity: string;
  action: RecordAction;
}

/** Whether a principal holds the permission: full administrators always; others by role name. */
export function allows(principal: Principal, { entity, action }: Permission): boolean {
  if (principal.isAdmin) return true;
  const prefix = entity.toLowerCase();
  return principal.roles.has(`${prefix}-${action.toLowerCase()}`) || (action === 'Edit' && principal.roles.has(`${prefix}-update`));
}

/** The OpenAPI extension that marks a public operation; the document shows it as `security: []` (src/http/openapi-document.ts). */
export const PUBLIC_MARK = 'x-public';

/** Opts a route out of authentication; everything else is denied by default. */
export const Public = () => applyDecorators(SetMetadata(IS_PUBLIC, true), ApiExtension(PUBLIC_MARK, { public: true }));

const documented = () =>
  applyDecorators(
    ApiBearerAuth(),
    ApiBasicAuth(),
    ApiUnauthorizedResponse({ description: 'Authorization has been denied for this request.' }),
  );

/** States the role a route needs and documents the schemes in OpenAPI (house style 6). */
export const RequirePermission = (entity: string, action: RecordAction) =>
  applyDecorators(SetMetadata(PERMISSION, { entity, action }), documented());

/** Any authenticated user may call the route; the handler decides the rest. */
export const Authenticated = () => documented();

/** Only a customer (a user linked to a coworker) may call the route. */
export const CustomerOnly = () => applyDecorators(SetMetadata(CUSTOMER_ONLY, true), ApiBearerAuth());

/** A valid token whose user no longer exists gets the AccessDenied ActionConfirmation (docs/api.md §2.4). */
export const AccessDeniedWhenUnresolved = () => SetMetadata(ACCESS_DENIED_WHEN_UNRESOLVED, true);

/** The authenticated principal of the request (undefined on public routes). */
export const actorOf = (request: FastifyRequest & { user?: Principal }): Principal | undefined => request.user;

/** The route parameter of the request's principal (actorOf). */
export const Actor = createParamDecorator((_: unknown, context: ExecutionContext): Principal | undefined =>
  actorOf(context.switchToHttp().getRequest<FastifyRequest & { user?: Principal }>()),
);
