import type { Queryable } from '../../db/connection';
import type { Principal } from '../../../src/domain/levels';
import type { CameraInput } from '../../../src/domain/vesselSchemas';
import { scopeParams, visibleDevicesSql } from '../../auth/deviceScope';

const COLUMNS = `c.id, c.device_id AS "deviceId", d.name AS "deviceName", c.name, c.link, c.description,
  c.created_at AS "createdAt", c.updated_at AS "updatedAt"`;
/** A camera as read (with its vessel's name, the times and the description besides these). */
export type CameraRow = { id: number; deviceId: number; link: string };

const values = (c: CameraInput) => [c.deviceId, c.name, c.link, c.description ?? null];

/** A camera of a device the caller sees, or undefined. */
export async function findVisibleCamera(db: Queryable, caller: Principal, id: number) {
  const [row] = await db.query<CameraRow>(
    `SELECT ${COLUMNS} FROM cameras c JOIN devices d ON d.id = c.device_id WHERE c.id = $4 AND ${visibleDevicesSql(caller)}`,
    [...scopeParams(caller), id],
  );
  return row;
}

/** The cameras of a vessel, by name. */
export async function camerasOfDevice(db: Queryable, deviceId: number) {
  return db.query<CameraRow>(
    `SELECT ${COLUMNS} FROM cameras c JOIN devices d ON d.id = c.device_id WHERE c.device_id = $1 ORDER BY c.name, c.id`,
    [deviceId],
  );
}

/** The new camera's id. */
export async function insertCamera(db: Queryable, input: CameraInput) {
  const [row] = await db.query<{ id: number }>(
    'INSERT INTO cameras (device_id, name, link, description) VALUES ($1, $2, $3, $4) RETURNING id',
    values(input),
  );
  return row!.id;
}

export async function updateCamera(db: Queryable, id: number, input: CameraInput) {
  await db.query('UPDATE cameras SET device_id = $1, name = $2, link = $3, description = $4, updated_at = now() WHERE id = $5', [
    ...values(input),
    id,
  ]);
}

export async function deleteCamera(db: Queryable, id: number) {
  await db.query('DELETE FROM cameras WHERE id = $1', [id]);
}
