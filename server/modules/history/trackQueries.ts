import type { Queryable } from '../../db/connection';
import type { Principal } from '../../../src/domain/levels';
import { Feature } from '../../../src/domain/features';
import { STOP_MIN_MINUTES, UNDER_WAY_KNOTS, type TrackSummary } from '../../../src/domain/track';
import { assertFeatureUnlocked } from '../devices/featureLock';
import { findVisibleDevice } from '../devices/deviceQueries';
import { THRESHOLD_SQL } from '../monitoring/stateSql';
import type { TrackColumns } from './simplify';

export interface TrackDevice {
  id: number;
  name: string;
  deviceNum: string | null;
  mmsi: string | null;
  offlineMinutes: number;
}

/**
 * The device of a history query: visible to the caller (else "not found", code 2) with track
 * history unlocked (else code 3, 'contact your service provider to unlock it'), and its offline
 * threshold, which decides where a track has gaps.
 */
export async function trackDevice(db: Queryable, user: Principal, deviceId: number): Promise<TrackDevice> {
  await assertFeatureUnlocked(db, user, deviceId, Feature.TrackHistory);
  return (await deviceWithThreshold(db, user, deviceId))!;
}

export async function deviceWithThreshold(db: Queryable, user: Principal, deviceId: number): Promise<TrackDevice | undefined> {
  const device = await findVisibleDevice(db, user, deviceId);
  if (!device) return undefined;
  const [row] = await db.query<{ offlineMinutes: number }>(
    `SELECT ${THRESHOLD_SQL} AS "offlineMinutes" FROM devices d
       LEFT JOIN device_offline_thresholds dot ON dot.device_id = d.id
       LEFT JOIN enterprise_offline_thresholds eot ON eot.enterprise_id = d.owner_id
      WHERE d.id = $1`, [deviceId]);
  return { id: device.id, name: device.name, deviceNum: device.deviceNum, mmsi: device.mmsi, offlineMinutes: Number(row?.offlineMinutes ?? 10) };
}

/**
 * Every report of a device in [from, to], as columns (one row of arrays: far cheaper to move than
 * one object per report). State per report as ingest derives it: 2 warn with a fault or without
 * modem lock, else 1 online.
 */
export async function loadTrackColumns(db: Queryable, deviceId: number, from: number, to: number): Promise<TrackColumns> {
  const [row] = await db.query<Record<keyof TrackColumns, number[] | null>>(
    `SELECT array_agg((extract(epoch FROM device_time) * 1000)::float8 ORDER BY device_time) AS t,
            array_agg(lat ORDER BY device_time) AS lat, array_agg(lon ORDER BY device_time) AS lon,
            array_agg(speed::float8 ORDER BY device_time) AS speed, array_agg(heading::float8 ORDER BY device_time) AS heading,
            array_agg(signal_level::float8 ORDER BY device_time) AS signal,
            array_agg(CASE WHEN cardinality(faults) > 0 OR NOT modem_lock THEN 2 ELSE 1 END ORDER BY device_time) AS state
       FROM device_reports
      WHERE device_id = $1 AND device_time >= $2 AND device_time <= $3`,
    [deviceId, new Date(from).toISOString(), new Date(to).toISOString()],
  );
  const col = (k: keyof TrackColumns) => (row?.[k] ?? []).map(Number);
  return { t: col('t'), lat: col('lat'), lon: col('lon'), speed: col('speed'), heading: col('heading'), signal: col('signal'), state: col('state') };
}

const EARTH_RADIUS_NM = 3440.065;
const rad = (d: number) => (d * Math.PI) / 180;
export function haversineNm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = rad(lat2 - lat1);
  const dLon = rad(lon2 - lon1);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_NM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * The summary over every report (not the simplified points): distance sailed and time online
 * between reports not separated by a gap, time under way where the earlier report's speed is at
 * least UNDER_WAY_KNOTS, and stops: runs below that speed lasting STOP_MIN_MINUTES or more.
 */
export function summarise(c: TrackColumns, gaps: readonly number[]): TrackSummary {
  const gapSet = new Set(gaps);
  let distanceNm = 0;
  let underWay = 0;
  let online = 0;
  let stops = 0;
  let slowSince = -1;
  const endStop = (at: number) => {
    if (slowSince >= 0 && at - slowSince >= STOP_MIN_MINUTES * 60_000) stops += 1;
    slowSince = -1;
  };
  for (let i = 0; i < c.t.length; i += 1) {
    if (i > 0 && !gapSet.has(i)) {
      const dt = c.t[i]! - c.t[i - 1]!;
      online += dt;
      distanceNm += haversineNm(c.lat[i - 1]!, c.lon[i - 1]!, c.lat[i]!, c.lon[i]!);
      if (c.speed[i - 1]! >= UNDER_WAY_KNOTS) underWay += dt;
    }
    if (gapSet.has(i)) endStop(c.t[i - 1]!);
    if (c.speed[i]! < UNDER_WAY_KNOTS) {
      if (slowSince < 0) slowSince = c.t[i]!;
    } else endStop(c.t[i]!);
  }
  if (c.t.length) endStop(c.t[c.t.length - 1]!);
  return {
    distanceNm: Math.round(distanceNm * 10) / 10,
    underWaySeconds: Math.round(underWay / 1000),
    onlineSeconds: Math.round(online / 1000),
    stops,
    reports: c.t.length,
    gaps: gaps.length,
  };
}
