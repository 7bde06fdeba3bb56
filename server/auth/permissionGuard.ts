import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/connection';
import { ErrorCode } from '../../src/domain/errorCodes';
import { isSuperUser, type Principal } from '../../src/domain/levels';
import { groupsAllow } from '../../src/domain/permissionGroups';
import { BizError } from '../http/envelope';
import type { SessionCache } from './sessionCache';
import { readGroupPermissions } from './permissionQueries';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The permission-group permission the route needs (e.g. "addmachine"), or a function of the
     * request giving it (null: none needed for this call, e.g. a user editing its own profile).
     */
    permission?: string | ((request: FastifyRequest) => string | null);
  }
}

/**
 * The permissions a user's groups grant, or null when it belongs to no group (then its level's
 * defaults apply unchanged). The super user (id 1) is never restricted.
 */
export async function grantedPermissions(db: Queryable, user: Principal): Promise<string[] | null> {
  if (isSuperUser(user)) return null;
  const groups = await readGroupPermissions(db, user.id);
  if (!groups.length) return null;
  return [...new Set(groups.flat())];
}

/**
 * grantedPermissions through the cache: a user's groups are read once per few seconds at most,
 * and again at once after a change of its memberships or of any group (migration 012 notifies).
 */
async function cachedGrantedPermissions(db: Queryable, user: Principal, cache: SessionCache): Promise<string[] | null> {
  if (isSuperUser(user)) return null;
  const hit = cache.permissions(user.id);
  if (hit !== undefined) return hit;
  const generation = cache.generation;
  const granted = await grantedPermissions(db, user);
  cache.putPermissions(user.id, granted, generation);
  return granted;
}

/** Refuses (code 20, the permission in data) when the user's groups do not grant it. */
export async function assertPermission(db: Queryable, user: Principal, permission: string, cache?: SessionCache): Promise<void> {
  const granted = cache ? await cachedGrantedPermissions(db, user, cache) : await grantedPermissions(db, user);
  if (!groupsAllow(granted, permission)) {
    throw new BizError(ErrorCode.PermissionDenied, 'error.permissionDenied', { permission }, { permission });
  }
}

/**
 * The one place permission groups are enforced: routes name the permission they need in their
 * config (`config: { permission: Permission.addMachine }`); this hook runs after the session
 * guard (so request.user is set) and the level check, which groups never widen.
 */
export function installPermissionGuard(app: FastifyInstance, db: Queryable, cache?: SessionCache) {
  app.addHook('preHandler', async (request: FastifyRequest) => {
    const rule = request.routeOptions.config.permission;
    if (!rule || !request.user) return;
    const permission = typeof rule === 'function' ? rule(request) : rule;
    if (permission) await assertPermission(db, request.user, permission, cache);
  });
}
