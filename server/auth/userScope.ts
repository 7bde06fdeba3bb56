import { ErrorCode } from '../../src/domain/errorCodes';
import { Level, isSuperUser, type Principal } from '../../src/domain/levels';
import { BizError } from '../http/envelope';

/**
 * Who may see and manage which user (docs/requirements.md §6), in one place:
 * - an admin sees everyone; only the super user manages other admins; nobody deletes the super user;
 * - an enterprise sees and manages its own sub-users (and sees itself);
 * - a sub-user sees only itself.
 */
export interface TargetUser {
  id: number;
  permissionLevel: Level;
  parentId: number | null;
}

/** SQL condition on users aliased `u`, with the caller's level as $1 and id as $2. */
export const VISIBLE_USERS_SQL = `($1 = '1' OR u.id = $2 OR ($1 = '2' AND u.parent_id = $2))`;
export const visibleUsersParams = (caller: Principal) => [caller.permissionLevel, caller.id];

/** The users a caller's lists show: an enterprise lists its sub-users, not itself. */
export const LISTED_USERS_SQL = `($1 = '1' OR ($1 = '2' AND u.parent_id = $2) OR ($1 = '3' AND u.id = $2))`;

export function canSee(caller: Principal, target: TargetUser): boolean {
  return (
    caller.permissionLevel === Level.Admin ||
    caller.id === target.id ||
    (caller.permissionLevel === Level.Enterprise && target.parentId === caller.id)
  );
}

/** May the caller edit another user's record, reset its password or delete it. */
export function canManage(caller: Principal, target: TargetUser): boolean {
  if (caller.id === target.id) return false;
  if (caller.permissionLevel === Level.Admin) return target.permissionLevel !== Level.Admin || isSuperUser(caller);
  return caller.permissionLevel === Level.Enterprise && target.parentId === caller.id;
}

/** Which levels a caller may create: admins any (admins only by the super user), enterprises sub-users. */
export function creatableLevels(caller: Principal): Level[] {
  if (caller.permissionLevel === Level.Admin)
    return isSuperUser(caller) ? [Level.Admin, Level.Enterprise, Level.SubUser] : [Level.Enterprise, Level.SubUser];
  if (caller.permissionLevel === Level.Enterprise) return [Level.SubUser];
  return [];
}

/** A target the caller cannot see answers "not found", so ids of other enterprises leak nothing. */
export function assertVisible<T extends TargetUser>(caller: Principal, target: T | undefined): T {
  if (!target || !canSee(caller, target)) throw new BizError(ErrorCode.NotFound);
  return target;
}

export function assertManageable(caller: Principal, target: TargetUser | undefined): TargetUser {
  const visible = assertVisible(caller, target);
  if (!canManage(caller, visible)) throw new BizError(ErrorCode.Forbidden);
  return visible;
}
