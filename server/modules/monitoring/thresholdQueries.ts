import type { Queryable } from '../../db/connection';
import { VISIBLE_DEVICES_SQL, scopeParams } from '../../auth/deviceScope';
import type { Principal } from '../../../src/domain/levels';

/** Whether the caller sees this device. */
export async function deviceVisible(db: Queryable, caller: Principal, deviceId: number) {
  const [visible] = await db.query(`SELECT 1 FROM devices d WHERE d.id = $4 AND ${VISIBLE_DEVICES_SQL}`, [
    ...scopeParams(caller),
    deviceId,
  ]);
  return visible !== undefined;
}

/** Sets a device's own offline threshold, or removes it (minutes null). */
export async function setDeviceThreshold(db: Queryable, deviceId: number, minutes: number | null) {
  if (minutes === null) await db.query('DELETE FROM device_offline_thresholds WHERE device_id = $1', [deviceId]);
  else
    await db.query(
      `INSERT INTO device_offline_thresholds (device_id, offline_minutes) VALUES ($1, $2)
        ON CONFLICT (device_id) DO UPDATE SET offline_minutes = EXCLUDED.offline_minutes`,
      [deviceId, minutes],
    );
}

export async function enterpriseExists(db: Queryable, enterpriseId: number) {
  const [enterprise] = await db.query(`SELECT 1 FROM users WHERE id = $1 AND permission_level = '2'`, [enterpriseId]);
  return enterprise !== undefined;
}

/** Sets an enterprise's default offline threshold, or removes it (minutes null). */
export async function setEnterpriseThreshold(db: Queryable, enterpriseId: number, minutes: number | null) {
  if (minutes === null) await db.query('DELETE FROM enterprise_offline_thresholds WHERE enterprise_id = $1', [enterpriseId]);
  else
    await db.query(
      `INSERT INTO enterprise_offline_thresholds (enterprise_id, offline_minutes) VALUES ($1, $2)
      ON CONFLICT (enterprise_id) DO UPDATE SET offline_minutes = EXCLUDED.offline_minutes`,
      [enterpriseId, minutes],
    );
}

export async function readSettings(db: Queryable) {
  const [row] = await db.query<{ defaultOfflineMinutes: number; retentionDays: number; reportKeepDays: number }>(
    `SELECT default_offline_minutes AS "defaultOfflineMinutes", retention_days AS "retentionDays", report_keep_days AS "reportKeepDays"
       FROM monitor_settings WHERE id = 1`,
  );
  return row;
}

/** Changes what is given (null keeps the value). */
export async function updateSettings(
  db: Queryable,
  settings: { defaultOfflineMinutes?: number | null; retentionDays?: number | null; reportKeepDays?: number | null },
) {
  await db.query(
    `UPDATE monitor_settings SET default_offline_minutes = COALESCE($1, default_offline_minutes),
      retention_days = COALESCE($2, retention_days), report_keep_days = COALESCE($3, report_keep_days) WHERE id = 1`,
    [settings.defaultOfflineMinutes ?? null, settings.retentionDays ?? null, settings.reportKeepDays ?? null],
  );
}
