import type { Queryable } from '../../db/connection';
import type { Principal } from '../../../src/domain/levels';
import type { Language } from '../../../src/domain/constants';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { alarmKindOf, alarmMeaning, faultInfo } from '../../../src/domain/faultCodes';
import { BizError } from '../../http/envelope';
import { VISIBLE_DEVICES_SQL, ownedRecordSql, scopeParams } from '../../auth/deviceScope';

export interface AlarmFilter {
  pageIndex: number;
  pageSize: number;
  deviceId?: number;
  code?: string;
  severity?: string;
  /** true: still active; false: cleared; absent: both. */
  active?: boolean;
  acknowledged?: boolean;
  ownerId?: number;
}

/** An alarm is the caller's when its vessel is and it was raised since the vessel came to the caller's enterprise (docs/requirements.md §6). */
const ALARM_OWNED = ownedRecordSql('a.raised_at');

const ALARM_WHERE = `${VISIBLE_DEVICES_SQL} AND ${ALARM_OWNED}
  AND ($4::int IS NULL OR a.device_id = $4::int)
  AND ($5::text IS NULL OR a.code = $5::text)
  AND ($6::text IS NULL OR a.severity = $6::text)
  AND ($7::boolean IS NULL OR (a.cleared_at IS NULL) = $7::boolean)
  AND ($8::boolean IS NULL OR (a.acked_at IS NOT NULL) = $8::boolean)
  AND ($9::int IS NULL OR d.owner_id = $9::int)`;

interface AlarmRow {
  id: number;
  deviceId: number;
  deviceName: string;
  deviceNum: string | null;
  ownerId: number;
  code: string;
  detail: string | null;
  severity: string;
  raisedAt: string;
  lastSeenAt: string;
  clearedAt: string | null;
  clearedBy: number | null;
  ackedBy: number | null;
  ackedByName: string | null;
  ackedAt: string | null;
  notifiedCount: number;
}

/** A page of the alarms of visible devices, newest first, with each code's unit and texts. */
export async function listAlarms(db: Queryable, caller: Principal, f: AlarmFilter, lang: Language) {
  const params = [
    ...scopeParams(caller),
    f.deviceId ?? null,
    f.code ?? null,
    f.severity ?? null,
    f.active ?? null,
    f.acknowledged ?? null,
    f.ownerId ?? null,
  ];
  const [count] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM alarms a JOIN devices d ON d.id = a.device_id WHERE ${ALARM_WHERE}`,
    params,
  );
  const rows = await db.query<AlarmRow>(
    `SELECT a.id::int AS id, a.device_id AS "deviceId", d.name AS "deviceName", d.device_num AS "deviceNum", d.owner_id AS "ownerId",
            a.code, a.detail, a.severity, a.raised_at AS "raisedAt", a.last_seen_at AS "lastSeenAt", a.cleared_at AS "clearedAt",
            a.cleared_by AS "clearedBy", a.acked_by AS "ackedBy", u.name AS "ackedByName", a.acked_at AS "ackedAt",
            (SELECT count(*)::int FROM notifications n WHERE n.alarm_id = a.id AND n.state = 'sent') AS "notifiedCount"
       FROM alarms a JOIN devices d ON d.id = a.device_id LEFT JOIN users u ON u.id = a.acked_by
      WHERE ${ALARM_WHERE}
      ORDER BY a.raised_at DESC, a.id DESC LIMIT $10 OFFSET $11`,
    [...params, f.pageSize, (f.pageIndex - 1) * f.pageSize],
  );
  const list = rows.map((r) => {
    const info = faultInfo(r.code);
    return {
      ...r,
      active: r.clearedAt === null,
      kind: alarmKindOf(r.code),
      unit: info?.unit ?? null,
      meaning: alarmMeaning(r.code, r.detail, lang),
      remedy: info?.remedy[lang] ?? '',
    };
  });
  return { list, total: count!.n };
}

/** Alarm ids the caller named but cannot see answer "not found" as a whole. */
export async function assertAlarmsVisible(db: Queryable, caller: Principal, ids: readonly number[]): Promise<void> {
  const unique = [...new Set(ids)];
  const rows = await db.query<{ id: number }>(
    `SELECT a.id::int AS id FROM alarms a JOIN devices d ON d.id = a.device_id WHERE a.id = ANY($4::bigint[]) AND ${VISIBLE_DEVICES_SQL} AND ${ALARM_OWNED}`,
    [...scopeParams(caller), unique],
  );
  if (rows.length !== unique.length) throw new BizError(ErrorCode.NotFound, 'error.alarmNotFound');
}

/** The active alarms of one code on one vessel that the caller sees, with who acknowledged each (fault clearing). */
export async function activeAlarmsOf(
  db: Queryable,
  caller: Principal,
  deviceId: number,
  code: string,
): Promise<{ id: number; ackedAt: string | null; ackedByName: string | null }[]> {
  return db.query(
    `SELECT a.id::int AS id, a.acked_at AS "ackedAt", u.name AS "ackedByName"
       FROM alarms a JOIN devices d ON d.id = a.device_id LEFT JOIN users u ON u.id = a.acked_by
      WHERE a.device_id = $4 AND a.code = $5 AND a.cleared_at IS NULL AND ${VISIBLE_DEVICES_SQL} AND ${ALARM_OWNED}
      ORDER BY a.id`,
    [...scopeParams(caller), deviceId, code],
  );
}

export async function acknowledgeAlarms(db: Queryable, userId: number, ids: readonly number[]): Promise<number> {
  const rows = await db.query(
    'UPDATE alarms SET acked_by = $1, acked_at = now() WHERE id = ANY($2::bigint[]) AND acked_at IS NULL RETURNING id',
    [userId, [...new Set(ids)]],
  );
  return rows.length;
}

/** A user's clear ends the alarm now; if the device still reports the fault, its next report raises a new one. */
export async function clearAlarms(db: Queryable, userId: number, ids: readonly number[]): Promise<number> {
  const rows = await db.query(
    'UPDATE alarms SET cleared_at = now(), cleared_by = $1 WHERE id = ANY($2::bigint[]) AND cleared_at IS NULL RETURNING id',
    [userId, [...new Set(ids)]],
  );
  return rows.length;
}
