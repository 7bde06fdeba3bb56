import type { Queryable } from '../../db/connection';
import type { Principal } from '../../../src/domain/levels';
import { Feature } from '../../../src/domain/features';
import { STOP_MIN_MINUTES, UNDER_WAY_KNOTS, type TrackSummary } from '../../../src/domain/track';
import { assertFeatureUnlocked } from '../devices/featureLock';
import { findVisibleDevice } from '../devices/deviceQueries';
import { THRESHOLD_SQL } from '../monitoring/stateSql';
import type { TrackColumns } from './simplify';
import { distanceNm as greatCircleNm } from '../../../src/domain/greatCircle';

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
      WHERE d.id = $1`,
    [deviceId],
  );
  return {
    id: device.id,
    name: device.name,
    deviceNum: device.deviceNum,
    mmsi: device.mmsi,
    offlineMinutes: Number(row?.offlineMinutes ?? 10),
  };
}

/**
 * Every report of a device in [from, to], as columns: one row of integer arrays (far cheaper to
 * move and parse than one object per report, or than float text), read in the primary key's
 * order so nothing is sorted. Precision is what the wire format keeps: whole seconds, 1e-5
 * degrees (about a metre), tenths of a knot, whole degrees of heading and signal level. State per
 * report as ingest derives it: 2 warn with a fault or without modem lock, else 1 online.
 */
export async function loadTrackColumns(db: Queryable, deviceId: number, from: number, to: number): Promise<TrackColumns> {
  // Each column comes as one comma-separated text: parsing it here is several times faster than
  // the driver's array parser.
  const [row] = await db.query<Record<keyof TrackColumns, string | null>>(
    `SELECT array_to_string(array_agg(t), ',') AS t, array_to_string(array_agg(lat), ',') AS lat,
            array_to_string(array_agg(lon), ',') AS lon, array_to_string(array_agg(speed), ',') AS speed,
            array_to_string(array_agg(heading), ',') AS heading, array_to_string(array_agg(signal), ',') AS signal,
            array_to_string(array_agg(state), ',') AS state
       FROM (SELECT extract(epoch FROM device_time)::int8 AS t, round(lat * 1e5)::int AS lat, round(lon * 1e5)::int AS lon,
                    round(speed * 10)::int AS speed, round(heading)::int AS heading, round(signal_level)::int AS signal,
                    CASE WHEN cardinality(faults) > 0 OR NOT modem_lock THEN 2 ELSE 1 END AS state
               FROM device_reports
              WHERE device_id = $1 AND device_time >= $2 AND device_time <= $3
              ORDER BY device_time) r`,
    [deviceId, new Date(from).toISOString(), new Date(to).toISOString()],
  );
  /** Integers back to units: times by `times`, then divided by `per` (division keeps 11.0 exact). */
  const column = (key: keyof TrackColumns, times: number, per = 1) => {
    const text = row?.[key];
    if (!text) return new Float64Array(0);
    const parts = text.split(',');
    const out = new Float64Array(parts.length);
    for (let i = 0; i < parts.length; i += 1) out[i] = (Number(parts[i]) * times) / per;
    return out;
  };
  return {
    t: column('t', 1000),
    lat: column('lat', 1, 1e5),
    lon: column('lon', 1, 1e5),
    speed: column('speed', 1, 10),
    heading: column('heading', 1),
    signal: column('signal', 1),
    state: Int8Array.from(column('state', 1)),
  };
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
      distanceNm += greatCircleNm([c.lat[i - 1]!, c.lon[i - 1]!], [c.lat[i]!, c.lon[i]!]);
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
