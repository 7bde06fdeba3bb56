import type { Queryable } from '../db/connection';
import type { LatLon } from '../../src/domain/geofences';

// The SQL of the geofence check (geofenceCheck.ts); its list of geofences also gives "degradation ahead" the
// enterprises' own ports (server/modules/vessel/degradeJob.ts).

export interface GeofenceRow {
  id: number;
  ownerId: number;
  name: string;
  kind: string;
  shape: 'circle' | 'polygon';
  lat: number | null;
  lon: number | null;
  radiusM: number | null;
  points: LatLon[] | null;
}

/** Waits for another replica's check to end (PostgreSQL), for this transaction. */
export const lockGeofenceCheck = (tx: Queryable) =>
  tx.query(`SELECT pg_advisory_xact_lock(hashtext(current_database() || '.' || current_schema() || '.geofence-check'))`);

export const allGeofences = (db: Queryable) =>
  db.query<GeofenceRow>(
    `SELECT id, owner_id AS "ownerId", name, kind, shape, lat, lon, radius_m AS "radiusM", points FROM geofences WHERE owner_id IS NOT NULL`,
  );

export interface VesselPosition {
  deviceId: number;
  ownerId: number;
  groupId: number | null;
  lat: number;
  lon: number;
  at: Date;
}

/** The latest position of each activated vessel of these enterprises. */
export const vesselPositions = (db: Queryable, ownerIds: readonly number[]) =>
  db.query<VesselPosition>(
    `SELECT d.id AS "deviceId", d.owner_id AS "ownerId", m.group_id AS "groupId", s.lat, s.lon, s.reported_at AS at
       FROM devices d JOIN device_state s ON s.device_id = d.id LEFT JOIN device_group_members m ON m.device_id = d.id
      WHERE d.activated AND d.owner_id = ANY($1::int[])`,
    [ownerIds],
  );

export const presence = (db: Queryable) =>
  db.query<{ deviceId: number; geofenceId: number }>(`SELECT device_id AS "deviceId", geofence_id AS "geofenceId" FROM geofence_presence`);

export interface GeofenceEventRow {
  deviceId: number;
  geofenceId: number;
  name: string;
  kind: string;
  event: 'arrival' | 'departure';
  at: Date;
  lat: number;
  lon: number;
}

/** Writes arrivals and departures, and moves the presence with them. */
export async function recordGeofenceEvents(tx: Queryable, events: readonly GeofenceEventRow[]): Promise<void> {
  if (!events.length) return;
  const col = <K extends keyof GeofenceEventRow>(k: K) => events.map((e) => e[k]);
  await tx.query(
    `INSERT INTO geofence_events (device_id, geofence_id, geofence_name, geofence_kind, event, at, lat, lon)
     SELECT * FROM unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::float8[], $8::float8[])`,
    [col('deviceId'), col('geofenceId'), col('name'), col('kind'), col('event'), col('at'), col('lat'), col('lon')],
  );
  const arrivals = events.filter((e) => e.event === 'arrival');
  await tx.query(
    `INSERT INTO geofence_presence (device_id, geofence_id, since) SELECT * FROM unnest($1::int[], $2::int[], $3::timestamptz[])
     ON CONFLICT DO NOTHING`,
    [arrivals.map((e) => e.deviceId), arrivals.map((e) => e.geofenceId), arrivals.map((e) => e.at)],
  );
  const departures = events.filter((e) => e.event === 'departure');
  await forgetPresence(
    tx,
    departures.map((e) => [e.deviceId, e.geofenceId]),
  );
}

/** Drops presence rows (a departure, or a geofence deleted since). */
export const forgetPresence = (tx: Queryable, pairs: readonly (readonly [number, number])[]) =>
  pairs.length
    ? tx.query(
        `DELETE FROM geofence_presence p USING unnest($1::int[], $2::int[]) AS g(device_id, geofence_id)
          WHERE p.device_id = g.device_id AND p.geofence_id = g.geofence_id`,
        [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
      )
    : Promise.resolve([]);

export interface GeofenceRule {
  ownerId: number;
  deviceIds: number[] | null;
  groupIds: number[] | null;
  geofenceIds: number[];
  trigger: 'enter' | 'leave';
  severity: 'critical' | 'major' | 'minor';
}

/** The enabled rules that watch geofences. */
export const geofenceRules = (db: Queryable) =>
  db.query<GeofenceRule>(
    `SELECT owner_id AS "ownerId", device_ids AS "deviceIds", group_ids AS "groupIds", geofence_ids AS "geofenceIds",
            COALESCE(geofence_trigger, 'enter') AS trigger, min_severity AS severity
       FROM alarm_rules WHERE enabled AND jsonb_array_length(COALESCE(geofence_ids, '[]')) > 0`,
  );

/** The last event of each vessel at each of these geofences. */
export const lastEvents = (db: Queryable, geofenceIds: readonly number[]) =>
  db.query<{ deviceId: number; geofenceId: number; event: 'arrival' | 'departure' }>(
    `SELECT DISTINCT ON (device_id, geofence_id) device_id AS "deviceId", geofence_id AS "geofenceId", event
       FROM geofence_events WHERE geofence_id = ANY($1::int[]) ORDER BY device_id, geofence_id, at DESC, id DESC`,
    [geofenceIds],
  );

export const openGeofenceAlarms = (db: Queryable) =>
  db.query<{ id: number; deviceId: number; code: string; sourceId: number | null }>(
    `SELECT id::int AS id, device_id AS "deviceId", code, source_id AS "sourceId"
       FROM alarms WHERE code IN ('GEOFENCE_IN', 'GEOFENCE_OUT') AND cleared_at IS NULL`,
  );

export interface NewGeofenceAlarm {
  deviceId: number;
  code: 'GEOFENCE_IN' | 'GEOFENCE_OUT';
  severity: string;
  geofenceId: number;
  name: string;
}

export async function raiseGeofenceAlarms(tx: Queryable, alarms: readonly NewGeofenceAlarm[]): Promise<void> {
  if (!alarms.length) return;
  await tx.query(
    `INSERT INTO alarms (device_id, code, severity, raised_at, last_seen_at, detail, source_id)
     SELECT u.device_id, u.code, u.severity, now(), now(), u.name, u.geofence_id
       FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::int[]) AS u(device_id, code, severity, name, geofence_id)
     ON CONFLICT (device_id, code) WHERE cleared_at IS NULL DO NOTHING`,
    [
      alarms.map((a) => a.deviceId),
      alarms.map((a) => a.code),
      alarms.map((a) => a.severity),
      alarms.map((a) => a.name),
      alarms.map((a) => a.geofenceId),
    ],
  );
}

export const clearAlarms = (tx: Queryable, ids: readonly number[]) =>
  ids.length
    ? tx.query('UPDATE alarms SET cleared_at = now() WHERE id = ANY($1::bigint[]) AND cleared_at IS NULL', [ids])
    : Promise.resolve([]);
