import type { Queryable } from '../../db/connection';
import type { Principal } from '../../../src/domain/levels';
import type { DeviceGroup } from '../../../src/domain/device';
import type { Page } from '../../../src/domain/user';
import { VISIBLE_GROUPS_SQL, scopeParams, visibleDevicesSql } from '../../auth/deviceScope';

/** A group's columns; the device count counts only devices the caller sees. */
const groupColumns = (caller: Principal) => `dg.id, dg.name, dg.owner_id AS "ownerId", u.name AS "ownerName", false AS virtual,
  (SELECT count(*) FROM device_group_members gm JOIN devices d ON d.id = gm.device_id
    WHERE gm.group_id = dg.id AND ${visibleDevicesSql(caller)})::int AS "deviceCount"`;

export interface GroupListQuery {
  pageIndex: number;
  pageSize: number;
  name?: string;
  ownerId?: number;
}

export async function listGroups(db: Queryable, caller: Principal, q: GroupListQuery): Promise<Page<DeviceGroup>> {
  const rows = await db.query<DeviceGroup & { total: number }>(
    `SELECT ${groupColumns(caller)}, count(*) OVER ()::int AS total
       FROM device_groups dg LEFT JOIN users u ON u.id = dg.owner_id
      WHERE ${VISIBLE_GROUPS_SQL}
        AND ($4::text IS NULL OR dg.name ILIKE '%' || $4 || '%')
        AND ($5::int IS NULL OR dg.owner_id = $5)
      ORDER BY dg.name, dg.id LIMIT $6 OFFSET $7`,
    [...scopeParams(caller), q.name || null, q.ownerId ?? null, q.pageSize, (q.pageIndex - 1) * q.pageSize],
  );
  return { list: rows.map(({ total: _total, ...group }) => group), total: rows[0]?.total ?? 0 };
}

export async function findVisibleGroup(db: Queryable, caller: Principal, id: number): Promise<DeviceGroup | undefined> {
  const [row] = await db.query<DeviceGroup>(
    `SELECT ${groupColumns(caller)} FROM device_groups dg LEFT JOIN users u ON u.id = dg.owner_id
      WHERE dg.id = $4 AND ${VISIBLE_GROUPS_SQL}`,
    [...scopeParams(caller), id],
  );
  return row;
}

/** How many visible devices are pinned by the caller, and how many are in no group. */
export async function virtualGroupCounts(db: Queryable, caller: Principal): Promise<{ pinned: number; ungrouped: number }> {
  const [row] = await db.query<{ pinned: number; ungrouped: number }>(
    `SELECT
       (SELECT count(*) FROM device_pins p JOIN devices d ON d.id = p.device_id WHERE p.user_id = $2::int AND ${visibleDevicesSql(caller)})::int AS pinned,
       (SELECT count(*) FROM devices d WHERE ${visibleDevicesSql(caller)}
           AND NOT EXISTS (SELECT 1 FROM device_group_members gm WHERE gm.device_id = d.id))::int AS ungrouped`,
    scopeParams(caller),
  );
  return row!;
}

export async function groupNameTaken(db: Queryable, ownerId: number, name: string, exceptId = 0): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM device_groups WHERE owner_id = $1 AND lower(name) = lower($2) AND id <> $3', [
    ownerId,
    name,
    exceptId,
  ]);
  return rows.length > 0;
}

export async function groupHoldsDevices(db: Queryable, groupId: number): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM device_group_members WHERE group_id = $1 LIMIT 1', [groupId]);
  return rows.length > 0;
}

/** Devices among ids whose owner is not the given enterprise. */
export async function devicesOfOtherOwners(db: Queryable, ids: number[], ownerId: number): Promise<number[]> {
  const rows = await db.query<{ id: number }>('SELECT id FROM devices WHERE id = ANY($1::int[]) AND owner_id <> $2', [ids, ownerId]);
  return rows.map((r) => r.id);
}

/** Puts devices into a group (0: out of every group). */
export async function moveDevices(db: Queryable, groupId: number, ids: number[]): Promise<void> {
  if (groupId === 0) {
    await db.query('DELETE FROM device_group_members WHERE device_id = ANY($1::int[])', [ids]);
    return;
  }
  await db.query(
    `INSERT INTO device_group_members (device_id, group_id) SELECT unnest($1::int[]), $2
     ON CONFLICT (device_id) DO UPDATE SET group_id = EXCLUDED.group_id, added_at = now()`,
    [ids, groupId],
  );
}

/**
 * After a device changes owner, nothing of the previous enterprise keeps pointing at it: its
 * group membership, its sub-user grants and the pins of the previous enterprise's users.
 */
export async function detachFromOtherEnterprises(db: Queryable, deviceId: number, ownerId: number): Promise<void> {
  await db.query(
    `DELETE FROM device_group_members m USING device_groups g
      WHERE m.device_id = $1 AND g.id = m.group_id AND g.owner_id <> $2`,
    [deviceId, ownerId],
  );
  await db.query(
    `DELETE FROM sub_user_grants sg USING users u
      WHERE sg.device_id = $1 AND u.id = sg.sub_user_id AND u.parent_id IS DISTINCT FROM $2`,
    [deviceId, ownerId],
  );
  await db.query(
    `DELETE FROM device_pins p USING users u
      WHERE p.device_id = $1 AND u.id = p.user_id AND u.permission_level <> '1'
        AND u.id <> $2 AND u.parent_id IS DISTINCT FROM $2`,
    [deviceId, ownerId],
  );
}

/** Creates a group of an enterprise; answers its id. */
export async function insertGroup(db: Queryable, ownerId: number, name: string): Promise<number> {
  const [row] = await db.query<{ id: number }>('INSERT INTO device_groups (owner_id, name) VALUES ($1, $2) RETURNING id', [ownerId, name]);
  return row!.id;
}

export async function renameGroup(db: Queryable, id: number, name: string): Promise<void> {
  await db.query('UPDATE device_groups SET name = $2, updated_at = now() WHERE id = $1', [id, name]);
}

export async function deleteGroup(db: Queryable, id: number): Promise<void> {
  await db.query('DELETE FROM device_groups WHERE id = $1', [id]);
}

/** Adds devices to a user's Special Focus (pins already there stay). */
export async function pinDevices(db: Queryable, userId: number, deviceIds: readonly number[]): Promise<void> {
  await db.query('INSERT INTO device_pins (user_id, device_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING', [
    userId,
    [...new Set(deviceIds)],
  ]);
}

export async function unpinDevices(db: Queryable, userId: number, deviceIds: readonly number[]): Promise<void> {
  await db.query('DELETE FROM device_pins WHERE user_id = $1 AND device_id = ANY($2::int[])', [userId, deviceIds]);
}
