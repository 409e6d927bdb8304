import { allows } from './roles.guard.js';
import type { Principal, RecordAction } from '../platform/principal.js';

/** What decides who may manage a user: its admin flag, its roles and its businesses (null: all). */
export interface UserPowers {
  isAdmin: boolean;
  roles: Iterable<string>;
  businessIds: readonly number[] | null;
}

/** Whether the actor holds a role name such as `Product-Create` (`-Update` counts as `-Edit`). */
export function holdsRole(actor: Principal, role: string): boolean {
  const dash = role.lastIndexOf('-');
  if (dash <= 0) return false;
  const action = role.slice(dash + 1).toLowerCase();
  const normalised = (action === 'update' ? 'Edit' : action[0].toUpperCase() + action.slice(1)) as RecordAction;
  return allows(actor, { entity: role.slice(0, dash), action: normalised });
}

/** Whether every business is among the actor's (full administrators have them all). */
export function withinBusinesses(actor: Principal, businessIds: readonly number[]): boolean {
  return actor.businessIds === null || businessIds.every((business) => actor.businessIds!.includes(business));
}

/**
 * Nobody gives what they do not have: a restricted administrator may act on (change, reset, deactivate,
 * delete, mint a token for) only a user that is no full administrator, whose businesses all lie among
 * its own (at least one), and whose roles it holds itself.
 */
export function mayManage(actor: Principal, target: UserPowers): boolean {
  if (actor.businessIds === null) return true;
  if (target.isAdmin || target.businessIds === null || !target.businessIds.length) return false;
  if (!withinBusinesses(actor, target.businessIds)) return false;
  for (const role of target.roles) if (!holdsRole(actor, role)) return false;
  return true;
}
