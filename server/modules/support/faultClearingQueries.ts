import type { Queryable } from '../../db/connection';
import type { Principal } from '../../../src/domain/levels';
import { scopeParams, visibleDevicesSql } from '../../auth/deviceScope';

const RECORD_COLUMNS = `r.id, r.device_id AS "deviceId", d.name AS "deviceName", d.device_num AS "deviceNum", r.code,
  r.steps_done AS "stepsDone", r.action, r.cleared, r.recorded_by AS "recordedBy", u.name AS "recordedByName", r.created_at AS "createdAt"`;
const RECORD_FROM = 'fault_clearing_records r JOIN devices d ON d.id = r.device_id LEFT JOIN users u ON u.id = r.recorded_by';

/** A page of the records of the devices the caller sees, newest first, each filter optional. */
export async function listFaultClearingRecords(
  db: Queryable,
  caller: Principal,
  f: { deviceId?: number; code?: string; cleared?: boolean; limit: number; offset: number },
) {
  const params: unknown[] = [...scopeParams(caller)];
  const where = [visibleDevicesSql(caller)];
  if (f.deviceId !== undefined) where.push(`r.device_id = $${params.push(f.deviceId)}`);
  if (f.code) where.push(`r.code = $${params.push(f.code)}`);
  if (f.cleared !== undefined) where.push(`r.cleared = $${params.push(f.cleared)}`);
  const from = `FROM ${RECORD_FROM} WHERE ${where.join(' AND ')}`;
  const [count] = await db.query<{ total: number }>(`SELECT count(*)::int AS total ${from}`, params);
  const list = await db.query(
    `SELECT ${RECORD_COLUMNS} ${from} ORDER BY r.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, f.limit, f.offset],
  );
  return { list, total: count!.total };
}

/** Writes a record and answers it as the list shows it. */
export async function insertFaultClearingRecord(
  db: Queryable,
  r: { deviceId: number; code: string; stepsDone: number[]; action: string; cleared: boolean; recordedBy: number },
) {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO fault_clearing_records (device_id, code, steps_done, action, cleared, recorded_by) VALUES ($1, $2, $3::int[], $4, $5, $6) RETURNING id`,
    [r.deviceId, r.code, r.stepsDone, r.action, r.cleared, r.recordedBy],
  );
  const [record] = await db.query(`SELECT ${RECORD_COLUMNS} FROM ${RECORD_FROM} WHERE r.id = $1`, [row!.id]);
  return record;
}
