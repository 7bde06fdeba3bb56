import type { Queryable } from '../../db/connection';
import type { Principal } from '../../../src/domain/levels';
import { VISIBLE_DEVICES_SQL, ownedRecordSql, scopeParams } from '../../auth/deviceScope';
import { STATE_JOINS, STATUS_SQL } from './stateSql';
import { CURRENT_LINKS_SQL, onBackupSql } from '../vessel/linkQueries';

/** Visible devices counted per kind and state (0 offline, 1 online, 2 warn). */
export async function statusCounts(db: Queryable, caller: Principal) {
  return db.query<{ kind: string; status: number; n: number }>(
    `SELECT kind, status, count(*)::int AS n FROM (
       SELECT d.device_kind AS kind, ${STATUS_SQL} AS status FROM devices d ${STATE_JOINS} WHERE ${VISIBLE_DEVICES_SQL}) x
      GROUP BY kind, status`,
    scopeParams(caller),
  );
}

/** Fault codes seen most within the last days on visible devices (alarms of the caller's time with the vessel, docs/requirements.md §6). */
export async function topFaults(db: Queryable, caller: Principal, days: number, limit: number) {
  return db.query<{ code: string; alarms: number; devices: number; lastSeenAt: string }>(
    `SELECT a.code, count(*)::int AS alarms, count(DISTINCT a.device_id)::int AS devices, max(a.last_seen_at) AS "lastSeenAt"
       FROM alarms a JOIN devices d ON d.id = a.device_id
      WHERE a.last_seen_at >= now() - make_interval(days => $4::int) AND ${VISIBLE_DEVICES_SQL} AND ${ownedRecordSql('a.raised_at')}
      GROUP BY a.code ORDER BY alarms DESC, devices DESC, a.code LIMIT $5`,
    [...scopeParams(caller), days, limit],
  );
}

/**
 * The visible vessels whose traffic goes over a backup link now (its active link is not the
 * router's first), the most recent first, and their count; and the failovers since `since` (ms).
 */
export async function linkSummary(db: Queryable, caller: Principal, since: number, limit: number) {
  // The visible vessels on a backup link (with `join`, their links as rows l).
  const onBackup = (join = '') => `FROM device_state s JOIN devices d ON d.id = s.device_id ${join}
    WHERE ${onBackupSql('s')} AND ${VISIBLE_DEVICES_SQL} AND ${ownedRecordSql('s.reported_at')}`;
  // on_backup is null only for a vessel without links (migration 037): withLinks counts the others.
  const [list, [counts]] = await Promise.all([
    db.query<{ deviceId: number; deviceName: string; linkId: string; kind: string; since: Date }>(
      `SELECT d.id AS "deviceId", d.name AS "deviceName", l."linkId", l.kind, to_timestamp(l.since / 1000) AS since
         ${onBackup(CURRENT_LINKS_SQL)} AND l.active
        ORDER BY l.since DESC, d.id LIMIT $4::int`,
      [...scopeParams(caller), limit],
    ),
    db.query<{ onBackupCount: number; withLinks: number; failovers: number }>(
      `SELECT (SELECT count(*) ${onBackup()})::int AS "onBackupCount",
              (SELECT count(*) FROM device_state s JOIN devices d ON d.id = s.device_id
                WHERE s.on_backup IS NOT NULL AND ${VISIBLE_DEVICES_SQL} AND ${ownedRecordSql('s.reported_at')})::int AS "withLinks",
              (SELECT count(*) FROM link_failovers f JOIN devices d ON d.id = f.device_id
                WHERE f.at >= to_timestamp($4::float8 / 1000) AND ${VISIBLE_DEVICES_SQL} AND ${ownedRecordSql('f.at')})::int AS failovers`,
      [...scopeParams(caller), since],
    ),
  ]);
  return { onBackup: list, ...counts! };
}
