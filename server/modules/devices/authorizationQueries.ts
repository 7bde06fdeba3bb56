import type { Queryable } from '../../db/connection';
import type { DeviceAuthGrant } from '../../../src/domain/device';
import type { DeviceAuthGrantInput } from '../../../src/domain/deviceSchemas';
import type { Feature } from '../../../src/domain/features';

const GRANT_COLUMNS = `a.id, a.enterprise_id AS "enterpriseId", u.name AS "enterpriseName", a.device_id AS "deviceId",
  d.name AS "deviceName", a.feature, a.device_count AS "deviceCount", a.subscription_quantity AS "subscriptionQuantity",
  to_char(a.deadline, 'YYYY-MM-DD') AS deadline, a.created_at AS "createdAt"`;
const GRANT_FROM = 'device_auth_grants a LEFT JOIN users u ON u.id = a.enterprise_id LEFT JOIN devices d ON d.id = a.device_id';

const grantValues = (g: DeviceAuthGrantInput) => [
  g.enterpriseId,
  g.deviceId ?? null,
  g.feature,
  g.deviceCount ?? null,
  g.subscriptionQuantity ?? null,
  g.deadline ?? null,
];

export const findGrant = async (db: Queryable, id: number) =>
  (await db.query<DeviceAuthGrant>(`SELECT ${GRANT_COLUMNS} FROM ${GRANT_FROM} WHERE a.id = $1`, [id]))[0];

/** Whether the device belongs to the enterprise. */
export async function isDeviceOf(db: Queryable, deviceId: number, enterpriseId: number) {
  const rows = await db.query('SELECT 1 FROM devices WHERE id = $1 AND owner_id = $2', [deviceId, enterpriseId]);
  return rows.length > 0;
}

/** A page of grants, each filter optional, ordered by enterprise, feature and id. */
export async function listGrants(
  db: Queryable,
  f: { enterpriseId?: number; deviceId?: number; feature?: Feature; limit: number; offset: number },
) {
  const rows = await db.query<DeviceAuthGrant & { total: number }>(
    `SELECT ${GRANT_COLUMNS}, count(*) OVER ()::int AS total FROM ${GRANT_FROM}
      WHERE ($1::int IS NULL OR a.enterprise_id = $1) AND ($2::int IS NULL OR a.device_id = $2) AND ($3::text IS NULL OR a.feature = $3)
      ORDER BY a.enterprise_id, a.feature, a.id LIMIT $4 OFFSET $5`,
    [f.enterpriseId ?? null, f.deviceId ?? null, f.feature ?? null, f.limit, f.offset],
  );
  return { list: rows.map(({ total: _t, ...g }) => g), total: rows[0]?.total ?? 0 };
}

/** The new grant's id; a grant already made throws the unique violation. */
export async function insertGrant(db: Queryable, input: DeviceAuthGrantInput) {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO device_auth_grants (enterprise_id, device_id, feature, device_count, subscription_quantity, deadline)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    grantValues(input),
  );
  return row!.id;
}

/** A grant already made throws the unique violation. */
export async function updateGrant(db: Queryable, id: number, input: DeviceAuthGrantInput) {
  await db.query(
    `UPDATE device_auth_grants SET enterprise_id = $2, device_id = $3, feature = $4, device_count = $5,
            subscription_quantity = $6, deadline = $7, updated_at = now() WHERE id = $1`,
    [id, ...grantValues(input)],
  );
}

/** Whether there was such a grant. */
export async function deleteGrant(db: Queryable, id: number) {
  const rows = await db.query('DELETE FROM device_auth_grants WHERE id = $1 RETURNING id', [id]);
  return rows.length > 0;
}
