import type { Db, Queryable } from '../../db/connection';
import type { Principal } from '../../../src/domain/levels';

/** Ids of the devices granted to a sub-user; `commandOnly`: those it may also send commands to. */
export async function grantedDeviceIds(db: Queryable, subUserId: number, commandOnly: boolean) {
  const rows = commandOnly
    ? await db.query<{ id: number }>(
        'SELECT device_id AS id FROM sub_user_grants WHERE sub_user_id = $1 AND can_command ORDER BY device_id',
        [subUserId],
      )
    : await db.query<{ id: number }>('SELECT device_id AS id FROM sub_user_grants WHERE sub_user_id = $1 ORDER BY device_id', [subUserId]);
  return rows.map((r) => r.id);
}

/** A page of the grants of the caller's sub-users (an admin: all), optionally of one sub-user. */
export async function listSubUserGrants(db: Queryable, caller: Principal, f: { subUserId?: number; limit: number; offset: number }) {
  const rows = await db.query<{ total: number }>(
    `SELECT sg.sub_user_id AS "subUserId", u.name AS "subUserName", sg.device_id AS "deviceId", d.name AS "deviceName",
            sg.can_command AS "canCommand", sg.granted_at AS "grantedAt", count(*) OVER ()::int AS total
       FROM sub_user_grants sg JOIN users u ON u.id = sg.sub_user_id JOIN devices d ON d.id = sg.device_id
      WHERE ($1::text = '1' OR u.parent_id = $2) AND ($3::int IS NULL OR sg.sub_user_id = $3)
      ORDER BY u.name, d.name, d.id LIMIT $4 OFFSET $5`,
    [caller.permissionLevel, caller.id, f.subUserId ?? null, f.limit, f.offset],
  );
  return { list: rows.map(({ total: _t, ...g }) => g), total: rows[0]?.total ?? 0 };
}

/** How many of these device ids the enterprise owns. */
export async function countOwnedDevices(db: Queryable, ids: readonly number[], enterpriseId: number) {
  const owned = await db.query<{ id: number }>('SELECT id FROM devices WHERE id = ANY($1::int[]) AND owner_id = $2', [ids, enterpriseId]);
  return owned.length;
}

/**
 * Replaces a sub-user's grants in one transaction: devices not in `ids` are revoked, new ones
 * granted; `commandIds` (null: unchanged) sets which of them may be sent commands.
 */
export async function setSubUserGrants(
  db: Db,
  subUserId: number,
  ids: readonly number[],
  commandIds: readonly number[] | null,
  grantedBy: number,
) {
  await db.transaction(async (tx) => {
    await tx.query('DELETE FROM sub_user_grants WHERE sub_user_id = $1 AND NOT (device_id = ANY($2::int[]))', [subUserId, ids]);
    await tx.query(
      `INSERT INTO sub_user_grants (sub_user_id, device_id, granted_by) SELECT $1, unnest($2::int[]), $3 ON CONFLICT DO NOTHING`,
      [subUserId, ids, grantedBy],
    );
    if (commandIds)
      await tx.query('UPDATE sub_user_grants SET can_command = (device_id = ANY($2::int[])) WHERE sub_user_id = $1', [
        subUserId,
        commandIds,
      ]);
  });
}
