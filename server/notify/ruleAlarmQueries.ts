import type { Queryable } from '../db/connection';
import { OFFLINE_ALARM } from '../../src/domain/faultCodes';

/**
 * The alarms alarm rules raise from what the vessels report, checked every minute by the leader
 * (docs/api.md, "Notifications"). Each is raised once per vessel with the severity of the rule that
 * decides (the strictest threshold), and the alarms trigger writes its outbox row, so rules notify
 * it like any alarm. alarm_rule_covers and signal_is_low are SQL functions (migration 022).
 */

/**
 * OFFLINE: each activated vessel a rule covers whose last report is older than the rule's
 * offlineMinutes (the shortest such rule decides). The vessel's next report clears it
 * (ingestQueries.clearOfflineAlarms). Answers how many were raised.
 */
export async function raiseOfflineAlarms(db: Queryable): Promise<number> {
  const rows = await db.query(
    // The silent vessels first (few), then the rule's scope on those alone: alarm_rule_covers is not
    // cheap enough to run on the whole fleet every minute.
    `WITH silent AS MATERIALIZED (
       SELECT d.id, r.min_severity, r.offline_minutes, r.device_ids, r.group_ids, s.reported_at
         FROM alarm_rules r
         JOIN devices d ON d.owner_id = r.owner_id AND d.activated
         JOIN device_state s ON s.device_id = d.id
        WHERE r.enabled AND r.offline_minutes IS NOT NULL AND s.reported_at < now() - make_interval(mins => r.offline_minutes))
     INSERT INTO alarms (device_id, code, severity, raised_at, last_seen_at)
     SELECT DISTINCT ON (id) id, $1::text, min_severity, now(), reported_at
       FROM silent WHERE alarm_rule_covers(device_ids, group_ids, id)
      ORDER BY id, offline_minutes
     ON CONFLICT (device_id, code) WHERE cleared_at IS NULL DO NOTHING
     RETURNING id`,
    [OFFLINE_ALARM.code],
  );
  return rows.length;
}

/** The enabled weak-signal rules and their enterprises' vessels (in scope or not), with their latest figures. */
const SIGNAL_RULES = `
  SELECT r.min_severity, r.signal_below, r.snr_below, r.low_minutes, r.device_ids, r.group_ids,
         d.id AS device_id, s.signal_level, s.snr, s.reported_at
    FROM alarm_rules r
    JOIN devices d ON d.owner_id = r.owner_id AND d.activated
    JOIN device_state s ON s.device_id = d.id
   WHERE r.enabled AND r.low_minutes IS NOT NULL AND (r.signal_below IS NOT NULL OR r.snr_below IS NOT NULL)`;

/**
 * SIGNAL_LOW: a vessel a rule covers that reports now (within the rule's minutes), whose every
 * report of the last `lowMinutes` is weak by the rule's thresholds, and whose last report before
 * them was weak too (so the weakness has lasted the whole time). Only vessels weak now are looked up
 * in the history, so the check stays cheap when the fleet is well. Answers how many were raised.
 */
export async function raiseSignalAlarms(db: Queryable): Promise<number> {
  const rows = await db.query(
    // Vessels weak now first (few), then the scope and the history on those alone.
    `WITH c AS MATERIALIZED (${SIGNAL_RULES}
           AND s.reported_at > now() - make_interval(mins => r.low_minutes) AND signal_is_low(s.signal_level, s.snr, r.signal_below, r.snr_below)),
     weak AS (
       SELECT DISTINCT ON (c.device_id) c.device_id, c.min_severity, c.signal_level, c.snr
         FROM c
        WHERE alarm_rule_covers(c.device_ids, c.group_ids, c.device_id)
          AND NOT EXISTS (SELECT 1 FROM device_reports p
                           WHERE p.device_id = c.device_id AND p.device_time > now() - make_interval(mins => c.low_minutes)
                             AND NOT signal_is_low(p.signal_level, p.snr, c.signal_below, c.snr_below))
          AND (SELECT signal_is_low(p.signal_level, p.snr, c.signal_below, c.snr_below) FROM device_reports p
                WHERE p.device_id = c.device_id AND p.device_time <= now() - make_interval(mins => c.low_minutes)
                ORDER BY p.device_time DESC LIMIT 1)
        ORDER BY c.device_id, CASE c.min_severity WHEN 'critical' THEN 3 WHEN 'major' THEN 2 ELSE 1 END DESC)
     INSERT INTO alarms (device_id, code, severity, raised_at, last_seen_at, detail)
     SELECT device_id, 'SIGNAL_LOW', min_severity, now(), now(), round(signal_level::numeric, 1) || ' / ' || round(snr::numeric, 1) || ' dB'
       FROM weak
     ON CONFLICT (device_id, code) WHERE cleared_at IS NULL DO NOTHING
     RETURNING id`,
  );
  return rows.length;
}

/**
 * A SIGNAL_LOW alarm clears when the vessel's latest figures are weak by no rule that covers it
 * (or no rule asks any more). Answers how many were cleared.
 */
export async function clearSignalAlarms(db: Queryable): Promise<number> {
  const rows = await db.query(
    `WITH c AS (${SIGNAL_RULES})
     UPDATE alarms a SET cleared_at = now()
      WHERE a.code = 'SIGNAL_LOW' AND a.cleared_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM c WHERE c.device_id = a.device_id AND signal_is_low(c.signal_level, c.snr, c.signal_below, c.snr_below)
                                          AND alarm_rule_covers(c.device_ids, c.group_ids, c.device_id))
     RETURNING a.id`,
  );
  return rows.length;
}
