import { ErrorCode } from '../../src/domain/errorCodes';
import { Level, enterpriseIdOf, type Principal } from '../../src/domain/levels';
import { BizError } from '../http/envelope';

/**
 * Who may see and manage which device and device group (SPEC section 6), in one place:
 * - an admin sees and manages every device and group, and assigns owner and sub-owner;
 * - an enterprise sees and manages its own devices and groups (owner_id = its id);
 * - a sub-user sees, read-only, those of its parent's devices it was granted (sub_user_grants)
 *   or is the sub-owner of, and its parent's groups.
 * A device or group outside the scope answers "not found", never another enterprise's data.
 *
 * The conditions take the caller as $1 (level), $2 (id), $3 (enterprise id); the params
 * functions give them in that order, so queries append their own parameters from $4 on.
 */
export const VISIBLE_DEVICES_SQL = `($1::text = '1'
  OR ($1::text = '2' AND d.owner_id = $2::int)
  OR ($1::text = '3' AND d.owner_id = $3::int AND (d.owner_sub_id = $2::int
      OR EXISTS (SELECT 1 FROM sub_user_grants sg WHERE sg.sub_user_id = $2::int AND sg.device_id = d.id))))`;

/** Groups aliased `dg`: an admin's every group, else the caller's enterprise's. */
export const VISIBLE_GROUPS_SQL = `($1::text = '1' OR dg.owner_id = $3::int)`;

export const scopeParams = (caller: Principal): [string, number, number] => [caller.permissionLevel, caller.id, enterpriseIdOf(caller)];

/** Levels that may change devices and groups; a sub-user's view is read-only. */
export const DEVICE_EDITORS = [Level.Admin, Level.Enterprise] as const;

/** The owner an enterprise writes with is always itself; a foreign owner is refused. */
export function ownerForWrite(caller: Principal, requestedOwnerId: number | null | undefined): number | null {
  if (caller.permissionLevel === Level.Admin) return requestedOwnerId ?? null;
  if (caller.permissionLevel !== Level.Enterprise) throw new BizError(ErrorCode.Forbidden);
  if (requestedOwnerId !== undefined && requestedOwnerId !== null && requestedOwnerId !== caller.id) throw new BizError(ErrorCode.Forbidden);
  return caller.id;
}

/** Device ids the caller named but cannot see answer "not found" as a whole. */
export function assertAllVisible(requested: readonly number[], visible: readonly number[]): void {
  const seen = new Set(visible);
  if (requested.some((id) => !seen.has(id))) throw new BizError(ErrorCode.NotFound, 'error.deviceNotFound');
}
