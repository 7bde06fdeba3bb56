import type { Queryable } from '../../db/connection';
import type { Principal } from '../../../src/domain/levels';
import type { Device } from '../../../src/domain/device';
import type { DeviceInput } from '../../../src/domain/deviceSchemas';
import type { Feature } from '../../../src/domain/features';
import { scopeParams, visibleDevicesSql } from '../../auth/deviceScope';

/**
 * The columns of a device as the API returns it; $2 (the caller's id) decides "pinned". Speed and
 * heading come from the latest report (device_state), so ingest never rewrites the devices row for them.
 */
export const DEVICE_COLUMNS = `d.id, d.name, d.device_num AS "deviceNum", d.mac, d.device_sn AS "deviceSn",
  d.owner_id AS "ownerId", o.name AS "ownerName", COALESCE(d.owner_sub_id, 0) AS "ownerSubId", s.name AS "ownerSubName",
  to_char(d.manufacture_date, 'YYYY-MM-DD') AS "manufactureDate", d.device_type AS "deviceType",
  d.adu_version AS "aduVersion", d.bdu_version AS "bduVersion", d.manufacture_info AS "manufactureInfo",
  d.device_model AS "deviceModel", d.device_kind AS "deviceKind", d.chip_id AS "chipId", d.modem_sn AS "modemSn",
  d.hardware, d.mmsi, d.imo, d.callsign, d.status, COALESCE(ds.speed, d.speed) AS speed, COALESCE(ds.heading, d.heading) AS heading, d.activated,
  d.activated_at AS "activatedAt", d.activated_by AS "activatedBy", m.group_id AS "groupId", g.name AS "groupName",
  EXISTS (SELECT 1 FROM device_pins p WHERE p.user_id = $2::int AND p.device_id = d.id) AS pinned,
  d.created_at AS "createdAt", d.updated_at AS "updatedAt"`;

export const DEVICE_JOINS = `LEFT JOIN users o ON o.id = d.owner_id
  LEFT JOIN device_state ds ON ds.device_id = d.id
  LEFT JOIN users s ON s.id = d.owner_sub_id
  LEFT JOIN device_group_members m ON m.device_id = d.id
  LEFT JOIN device_groups g ON g.id = m.group_id`;

/** A visible device, or undefined (the caller then answers "not found"). */
export async function findVisibleDevice(db: Queryable, caller: Principal, id: number): Promise<Device | undefined> {
  const [row] = await db.query<Device>(
    `SELECT ${DEVICE_COLUMNS} FROM devices d ${DEVICE_JOINS} WHERE d.id = $4 AND ${visibleDevicesSql(caller)}`,
    [...scopeParams(caller), id],
  );
  return row;
}

/** Which of the given ids the caller may see. */
export async function visibleDeviceIds(db: Queryable, caller: Principal, ids: readonly number[]): Promise<number[]> {
  const rows = await db.query<{ id: number }>(`SELECT d.id FROM devices d WHERE d.id = ANY($4::int[]) AND ${visibleDevicesSql(caller)}`, [
    ...scopeParams(caller),
    [...new Set(ids)],
  ]);
  return rows.map((r) => r.id);
}

/** The stored values of a validated device, in the column order of INSERT_COLUMNS. */
export const deviceValues = (d: DeviceInput) => [
  d.name,
  d.deviceNum ?? null,
  d.mac ?? null,
  d.deviceSn,
  d.ownerId,
  d.ownerSubId || null,
  d.manufactureDate,
  d.deviceType,
  d.aduVersion,
  d.bduVersion,
  d.manufactureInfo,
  d.deviceModel,
  d.deviceKind,
  d.chipId ?? null,
  d.modemSn ?? null,
  d.hardware ?? null,
  d.mmsi ?? null,
  d.imo ?? null,
  d.callsign ?? null,
];

export const INSERT_COLUMNS = `name, device_num, mac, device_sn, owner_id, owner_sub_id, manufacture_date,
  device_type, adu_version, bdu_version, manufacture_info, device_model, device_kind,
  chip_id, modem_sn, hardware, mmsi, imo, callsign`;

/** The SQL type of each INSERT_COLUMNS column, for batch inserts through unnest(). */
export const INSERT_TYPES = [
  'text',
  'text',
  'text',
  'text',
  'int',
  'int',
  'date',
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
] as const;

export async function insertDevice(db: Queryable, input: DeviceInput): Promise<number> {
  const values = deviceValues(input);
  const placeholders = values.map((_, i) => `$${i + 1}`).join(', ');
  const [row] = await db.query<{ id: number }>(`INSERT INTO devices (${INSERT_COLUMNS}) VALUES (${placeholders}) RETURNING id`, values);
  return row!.id;
}

export async function updateDevice(db: Queryable, id: number, input: DeviceInput): Promise<void> {
  await db.query(
    `UPDATE devices SET name = $2, device_num = $3, mac = $4, device_sn = $5, owner_id = $6, owner_sub_id = $7,
            manufacture_date = $8, device_type = $9, adu_version = $10, bdu_version = $11, manufacture_info = $12,
            device_model = $13, device_kind = $14, chip_id = $15, modem_sn = $16, hardware = $17, mmsi = $18,
            imo = $19, callsign = $20, updated_at = now()
      WHERE id = $1`,
    [id, ...deviceValues(input)],
  );
}

/** Deletes a device with everything that points at it. */
export async function deleteDevice(db: Queryable, id: number): Promise<void> {
  await db.query('DELETE FROM devices WHERE id = $1', [id]);
}

/**
 * Whether a feature is unlocked for a device: an admin always; anyone else when the device's
 * owner holds a grant of the feature for all its devices or for this one, whose deadline (if
 * any) has not passed.
 */
export async function isFeatureUnlocked(db: Queryable, ownerId: number, deviceId: number, feature: Feature): Promise<boolean> {
  const rows = await db.query(
    `SELECT 1 FROM device_auth_grants
      WHERE enterprise_id = $1 AND feature = $3 AND (device_id IS NULL OR device_id = $2)
        AND (deadline IS NULL OR deadline >= current_date) LIMIT 1`,
    [ownerId, deviceId, feature],
  );
  return rows.length > 0;
}

/** The deviceNum, SN and MAC of the other devices (not `exceptId`) holding one of these values. */
export async function devicesHoldingUniqueValues(
  db: Queryable,
  values: { deviceNums: string[]; deviceSns: string[]; macs: string[] },
  exceptId: number,
) {
  return db.query<{ device_num: string | null; device_sn: string; mac: string | null }>(
    `SELECT device_num, device_sn, mac FROM devices
      WHERE id <> $4 AND (device_num = ANY($1::text[]) OR device_sn = ANY($2::text[]) OR mac = ANY($3::text[]))`,
    [values.deviceNums, values.deviceSns, values.macs, exceptId],
  );
}

/** The other devices (not `exceptId`) with this MMSI, at most 20, each saying whether the caller sees it. */
export async function devicesWithMmsi(db: Queryable, caller: Principal, mmsi: string, exceptId: number) {
  return db.query<{ id: number; name: string; visible: boolean }>(
    `SELECT d.id, d.name, ${visibleDevicesSql(caller)} AS visible FROM devices d
      WHERE d.mmsi = $4 AND d.id <> $5 ORDER BY d.id LIMIT 20`,
    [...scopeParams(caller), mmsi, exceptId],
  );
}
