import type { Db } from '../../db/connection';
import {
  DEGRADE_CONFIRM_CHECKS,
  DEGRADE_DEFAULTS,
  DEGRADE_RES,
  DEGRADE_WINDOW_DAYS,
  confirmWarnings,
  degradeAhead,
  type DegradeThresholds,
  type WarningStreak,
} from '../../../src/domain/degradeAhead';
import { degradeDetail } from '../../../src/domain/degradeDetail';
import { ownPorts, portNamed, type OwnPort, type OwnPorts } from '../../../src/domain/ports';
import { geofenceCentre } from '../../../src/domain/geofences';
import { windowDays } from '../../../src/domain/coverage';
import { coverageBySatellite } from './coverageQueries';
import { activeDegradeWarnings, applyDegradeWarnings, vesselsUnderWay } from './degradeQueries';
import { allGeofences } from '../../notify/geofenceQueries';
import { trafficSince } from './trafficQueries';

/**
 * The leader's check every 5 minutes (server/simulator/startDemo.ts): every vessel under way is
 * projected 6 hours ahead along the fleet's lanes (its traffic, src/domain/trafficFlow.ts), toward
 * its voyage's port where the lanes say nothing and no further (src/domain/ports.ts: the product's
 * ports, and the port geofences of the vessel's enterprise, looked at first), against
 * the fleet's coverage of the last 30 days (src/domain/degradeAhead.ts),
 * and the DEGRADE_AHEAD alarms are made to match: a vessel warned at DEGRADE_CONFIRM_CHECKS checks in a
 * row, cleared once missed at DEGRADE_CLEAR_CHECKS in a row (`streaks` carries the counts from one
 * check to the next; confirmWarnings, squared with the alarms standing, so that a new leader holds
 * them rather than clearing them). Answers what it did and its time.
 */
export async function checkDegradeAhead(db: Db, streaks: Map<number, WarningStreak>, thresholds: Partial<DegradeThresholds> = {}) {
  const t = { ...DEGRADE_DEFAULTS, ...thresholds };
  const { from, to } = windowDays(DEGRADE_WINDOW_DAYS);
  const coverage = await coverageBySatellite(db, DEGRADE_RES, from, to);
  const traffic = await trafficSince(db, DEGRADE_WINDOW_DAYS);
  const vessels = await vesselsUnderWay(db);
  const ports = await ownPortsByEnterprise(db);
  // The alarms standing are the warnings: a new leader (or one whose last apply failed) starts from them, not from nothing.
  const standing = new Set(await activeDegradeWarnings(db));
  for (const [id, streak] of streaks) if (streak.found >= DEGRADE_CONFIRM_CHECKS && !standing.has(id)) streaks.delete(id);
  for (const id of standing) if (!streaks.has(id)) streaks.set(id, { found: DEGRADE_CONFIRM_CHECKS, missed: 0 });
  const cpu = process.cpuUsage();
  const started = performance.now();
  const found = new Map<number, string>();
  const lookup = (satellite: string, cell: string) => coverage.get(`${satellite}|${cell}`);
  const flow = (cell: string, sector: number) => traffic.get(`${cell}|${sector}`);
  for (const { destination, ...v } of vessels) {
    const w = degradeAhead({ ...v, destination: portNamed(destination, ports.get(v.ownerId))?.at }, lookup, t, flow);
    if (w) found.set(v.deviceId, degradeDetail(w));
  }
  const { confirmed, held, streaks: next } = confirmWarnings(streaks, found.keys());
  streaks.clear();
  for (const [id, n] of next) streaks.set(id, n);
  const warnings = [...confirmed].map((deviceId) => ({ deviceId, detail: found.get(deviceId)! }));
  const used = process.cpuUsage(cpu);
  const evaluateMs = performance.now() - started;
  const applied = await applyDegradeWarnings(db, warnings, [...held]);
  return {
    vessels: vessels.length,
    cells: coverage.size,
    trafficCells: traffic.size,
    found: found.size,
    warned: warnings.length,
    held: held.size,
    ...applied,
    evaluateMs,
    cpuMs: (used.user + used.system) / 1000,
  };
}

/** Each enterprise's own ports: its port geofences, each at its centre. Never another enterprise's. */
async function ownPortsByEnterprise(db: Db): Promise<Map<number, OwnPorts>> {
  const places = new Map<number, OwnPort[]>();
  for (const g of await allGeofences(db)) {
    const at = g.kind === 'port' ? geofenceCentre(g) : null;
    if (!at) continue;
    const list = places.get(g.ownerId) ?? [];
    list.push({ name: g.name, at });
    places.set(g.ownerId, list);
  }
  return new Map([...places].map(([owner, list]) => [owner, ownPorts(list)]));
}
