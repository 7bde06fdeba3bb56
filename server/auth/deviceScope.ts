import { ErrorCode } from '../../src/domain/errorCodes';
import { Level, enterpriseIdOf, type Principal } from '../../src/domain/levels';
import { BizError } from '../http/envelope';

/**
 * Who may see and manage which device and device group (docs/requirements.md §6), in one place:
 * - an admin sees and manages every device and group, and assigns owner and sub-owner;
 * - an enterprise sees and manages its own devices and groups (owner_id = its id);
 * - a sub-user sees, read-only, those of its parent's devices it was granted (sub_user_grants)
 *   or is the sub-owner of, and its parent's groups.
 * A device or group outside the scope answers "not found", never another enterprise's data.
 *
 * The conditions take the caller as $1 (level), $2 (id), $3 (enterprise id); the params
 * functions give them in that order, so queries append their own parameters from $4 on.
 */
const DEVICE_SCOPE_BY_LEVEL: Record<Level, string> = {
  [Level.Admin]: `$1::text = '1'`,
  [Level.Enterprise]: `($1::text = '2' AND d.owner_id = $2::int)`,
  [Level.SubUser]: `($1::text = '3' AND d.owner_id = $3::int AND d.id IN (
      SELECT sg.device_id FROM sub_user_grants sg WHERE sg.sub_user_id = $2::int
      UNION ALL SELECT so.id FROM devices so WHERE so.owner_sub_id = $2::int))`,
};

/** The rule for any caller, the level chosen by $1 (for queries that do not know the caller's level). */
export const VISIBLE_DEVICES_SQL = `(${Object.values(DEVICE_SCOPE_BY_LEVEL).join('\n  OR ')})`;

/**
 * The same rule with the caller's level branch only: the planner can then drive a sub-user's
 * list from its grants and an enterprise's from the owner index. Same parameters $1..$3.
 */
export const visibleDevicesSql = (caller: Principal): string =>
  `(${DEVICE_SCOPE_BY_LEVEL[caller.permissionLevel] ?? 'false'} AND $2::int IS NOT NULL AND $3::int IS NOT NULL)`;

/**
 * A record of a device `d` that is the caller's to see by its time (docs/requirements.md §6, "A
 * transferred vessel"): level 1 sees every record; levels 2 and 3 those made since their enterprise
 * got the vessel (devices.owner_since, '-infinity' when it never changed owner). $1 is the level,
 * as above; the devices row is `d` unless named. A condition on the devices row the query joins
 * already: no per-record lookup.
 */
export const ownedRecordSql = (time: string, device = 'd'): string => `($1::text = '1' OR ${time} >= ${device}.owner_since)`;

/** Groups aliased `dg`: an admin's every group, else the caller's enterprise's. */
export const VISIBLE_GROUPS_SQL = `($1::text = '1' OR dg.owner_id = $3::int)`;

export const scopeParams = (caller: Principal): [string, number, number] => [caller.permissionLevel, caller.id, enterpriseIdOf(caller)];

/** Levels that may change devices and groups (the domain's rule, shared with the console). */
export { DEVICE_EDITORS } from '../../src/domain/levels';

/** The owner an enterprise writes with is always itself; a foreign owner is refused. */
export function ownerForWrite(caller: Principal, requestedOwnerId: number | null | undefined): number | null {
  if (caller.permissionLevel === Level.Admin) return requestedOwnerId ?? null;
  if (caller.permissionLevel !== Level.Enterprise) throw new BizError(ErrorCode.Forbidden);
  if (requestedOwnerId !== undefined && requestedOwnerId !== null && requestedOwnerId !== caller.id)
    throw new BizError(ErrorCode.Forbidden);
  return caller.id;
}

/** Device ids the caller named but cannot see answer "not found" as a whole. */
export function assertAllVisible(requested: readonly number[], visible: readonly number[]): void {
  const seen = new Set(visible);
  if (requested.some((id) => !seen.has(id))) throw new BizError(ErrorCode.NotFound, 'error.deviceNotFound');
}
