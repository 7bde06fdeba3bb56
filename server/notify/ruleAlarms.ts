import type { Db } from '../db/connection';
import { checkGeofences } from './geofenceCheck';
import { clearSignalAlarms, raiseOfflineAlarms, raiseSignalAlarms } from './ruleAlarmQueries';

/**
 * What alarm rules raise from the fleet's state, checked every minute by the leader
 * (server/simulator/startDemo.ts): offline vessels, weak signal, geofence arrivals and departures.
 * Commands and firmware updates raise theirs by trigger, in the transaction that failed them
 * (migration 022).
 */
export async function checkRuleAlarms(db: Db) {
  const offline = await raiseOfflineAlarms(db);
  const weak = await raiseSignalAlarms(db);
  const recovered = await clearSignalAlarms(db);
  const geofences = await checkGeofences(db);
  return { offline, weak, recovered, geofences };
}
