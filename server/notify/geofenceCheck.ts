import type { Db } from '../db/connection';
import { contains, type LatLon } from '../../src/domain/geofences';
import {
  allGeofences,
  clearAlarms,
  forgetPresence,
  geofenceRules,
  lockGeofenceCheck,
  lastEvents,
  openGeofenceAlarms,
  presence,
  raiseGeofenceAlarms,
  recordGeofenceEvents,
  vesselPositions,
  type GeofenceEventRow,
  type GeofenceRow,
  type NewGeofenceAlarm,
} from './geofenceQueries';
import { ruleCovers } from './ruleScope';

const M_PER_DEGREE = 111_320;
const RANK: Record<string, number> = { minor: 1, major: 2, critical: 3 };

/** A geofence with the box around it (a cheap first test). */
function boxed(g: GeofenceRow) {
  if (g.shape === 'circle') {
    const dLat = (g.radiusM ?? 0) / M_PER_DEGREE;
    const dLon = dLat / Math.max(0.01, Math.cos(((g.lat ?? 0) * Math.PI) / 180));
    return { g, box: [(g.lat ?? 0) - dLat, (g.lat ?? 0) + dLat, (g.lon ?? 0) - dLon, (g.lon ?? 0) + dLon] };
  }
  const pts = g.points ?? [];
  const lats = pts.map((p) => p[0]);
  const lons = pts.map((p) => p[1]);
  return { g, box: [Math.min(...lats), Math.max(...lats), Math.min(...lons), Math.max(...lons)] };
}

export interface GeofenceCheck {
  arrivals: number;
  departures: number;
  raised: number;
  cleared: number;
}

/**
 * The minute check of geofences (docs/api.md, "Notifications"), run by the leader: each vessel's
 * latest position against its enterprise's geofences. A vessel found in one it was not in arrives
 * (an event at the time of its report); one no longer in it departs. Then the geofence alarms follow
 * the rules: GEOFENCE_IN open while a vessel is in a geofence a rule watches for entries,
 * GEOFENCE_OUT open while it is out of one a rule watches for departures and its last event there
 * was a departure (a vessel never in the area has not left it). One transaction.
 */
export function checkGeofences(db: Db): Promise<GeofenceCheck> {
  return db.transaction(async (tx) => {
    // One check at a time across replicas (an old leader finishing while the new one starts).
    if (db.engine === 'postgres') await lockGeofenceCheck(tx);
    const fences = (await allGeofences(tx)).map(boxed);
    const byOwner = new Map<number, ReturnType<typeof boxed>[]>();
    for (const f of fences) byOwner.set(f.g.ownerId, [...(byOwner.get(f.g.ownerId) ?? []), f]);
    const positions = byOwner.size ? await vesselPositions(tx, [...byOwner.keys()]) : [];
    const was = new Set((await presence(tx)).map((p) => `${p.deviceId}:${p.geofenceId}`));
    const inside = new Map<string, [number, number]>();
    const events: GeofenceEventRow[] = [];
    const names = new Map(fences.map((f) => [f.g.id, f.g]));
    const at = new Map(positions.map((p) => [p.deviceId, p]));
    for (const p of positions) {
      const point: LatLon = [p.lat, p.lon];
      for (const { g, box } of byOwner.get(p.ownerId) ?? []) {
        if (p.lat < box[0]! || p.lat > box[1]! || p.lon < box[2]! || p.lon > box[3]! || !contains(g, point)) continue;
        const key = `${p.deviceId}:${g.id}`;
        inside.set(key, [p.deviceId, g.id]);
        if (!was.has(key)) events.push({ ...p, geofenceId: g.id, name: g.name, kind: g.kind, event: 'arrival' });
      }
    }
    const gone: [number, number][] = [];
    for (const key of was) {
      if (inside.has(key)) continue;
      const [deviceId, geofenceId] = key.split(':').map(Number) as [number, number];
      const g = names.get(geofenceId);
      const p = at.get(deviceId);
      // A geofence deleted, or a vessel no longer its enterprise's: forgotten without an event.
      if (!g || !p || p.ownerId !== g.ownerId) gone.push([deviceId, geofenceId]);
      else events.push({ ...p, geofenceId, name: g.name, kind: g.kind, event: 'departure' });
    }
    await recordGeofenceEvents(tx, events);
    await forgetPresence(tx, gone);

    // The rules that watch geofences, each with the set it watches; a pair (vessel, geofence) wants
    // an alarm when a rule of its trigger watches that geofence and covers that vessel (ruleScope.ts).
    const rules = (await geofenceRules(tx)).map((r) => ({ ...r, watched: new Set(r.geofenceIds) }));
    const open = await openGeofenceAlarms(tx);
    const openByKey = new Map(open.map((a) => [`${a.deviceId}:${a.code}`, a]));
    const wanted = new Map<string, NewGeofenceAlarm>();
    const want = (code: NewGeofenceAlarm['code'], deviceId: number, geofenceId: number) => {
      const p = at.get(deviceId);
      const g = names.get(geofenceId);
      if (!p || !g) return;
      const trigger = code === 'GEOFENCE_IN' ? 'enter' : 'leave';
      for (const r of rules) {
        if (r.trigger !== trigger || r.ownerId !== p.ownerId || !r.watched.has(geofenceId) || !ruleCovers(r, deviceId, p.groupId)) continue;
        // The most severe rule decides; between equals, the geofence the open alarm already names stays.
        const prior = wanted.get(`${deviceId}:${code}`);
        const keeps = openByKey.get(`${deviceId}:${code}`)?.sourceId === geofenceId;
        if (prior && (RANK[prior.severity]! > RANK[r.severity]! || (RANK[prior.severity] === RANK[r.severity] && !keeps))) continue;
        wanted.set(`${deviceId}:${code}`, { deviceId, code, severity: r.severity, geofenceId, name: g.name });
      }
    };
    for (const [deviceId, geofenceId] of inside.values()) want('GEOFENCE_IN', deviceId, geofenceId);
    const leaving = [...new Set(rules.filter((r) => r.trigger === 'leave').flatMap((r) => r.geofenceIds))];
    for (const e of leaving.length ? await lastEvents(tx, leaving) : [])
      if (e.event === 'departure' && !inside.has(`${e.deviceId}:${e.geofenceId}`)) want('GEOFENCE_OUT', e.deviceId, e.geofenceId);
    // An open alarm whose geofence is no longer the one wanted is cleared, and the wanted one raised.
    const same = (a: NewGeofenceAlarm | undefined, o: { sourceId: number | null } | undefined) =>
      a !== undefined && o?.sourceId === a.geofenceId;
    const stale = open.filter((o) => !same(wanted.get(`${o.deviceId}:${o.code}`), o)).map((o) => o.id);
    const fresh = [...wanted.entries()].filter(([key, a]) => !same(a, openByKey.get(key))).map(([, a]) => a);
    await clearAlarms(tx, stale);
    await raiseGeofenceAlarms(tx, fresh);
    const arrivals = events.filter((e) => e.event === 'arrival').length;
    return { arrivals, departures: events.length - arrivals, raised: fresh.length, cleared: stale.length };
  });
}
