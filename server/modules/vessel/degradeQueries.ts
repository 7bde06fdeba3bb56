import type { Queryable } from '../../db/connection';
import { DEGRADE_ALARM_CODE } from '../../../src/domain/degradeDetail';
import { UNDER_WAY_KN, type VesselNow } from '../../../src/domain/degradeAhead';

// "Degradation ahead" (docs/architecture.md): the vessels to look at, and their warnings as alarms.

export type VesselUnderWay = Omit<VesselNow, 'destination'> & { deviceId: number; ownerId: number; destination: string | null };

/**
 * Activated vessels under way now: reported within 30 minutes, locked on a satellite, at UNDER_WAY_KN
 * or more; with their enterprise and the destination of their voyage under way (departed, not yet due), if any.
 */
export const vesselsUnderWay = (db: Queryable) =>
  db.query<VesselUnderWay>(
    `SELECT s.device_id AS "deviceId", d.owner_id AS "ownerId", s.lat, s.lon, s.heading, s.speed AS "speedKn", s.satellite_name AS satellite, s.snr,
            EXISTS (SELECT 1 FROM json_array_elements(COALESCE(s.links, '[]'::json)) l
                     WHERE (l->>'priority')::int > 0 AND l->>'state' <> 'down') AS "hasBackup",
            (SELECT v.destination FROM voyages v WHERE v.device_id = s.device_id AND v.etd <= now() AND v.eta >= now()
              ORDER BY v.etd DESC LIMIT 1) AS destination
       FROM device_state s JOIN devices d ON d.id = s.device_id
      WHERE d.activated AND s.reported_at > now() - interval '30 minutes' AND s.speed >= $1
        AND s.satellite_name IS NOT NULL AND s.modem_lock`,
    [UNDER_WAY_KN],
  );

/** The vessels with a DEGRADE_AHEAD alarm standing. */
export const activeDegradeWarnings = async (db: Queryable) =>
  (await db.query<{ device_id: number }>(`SELECT device_id FROM alarms WHERE code = $1 AND cleared_at IS NULL`, [DEGRADE_ALARM_CODE])).map(
    (r) => r.device_id,
  );

/**
 * Makes the active DEGRADE_AHEAD alarms those of `warnings`: a new one is raised (minor), one still
 * warned gets its new detail (the minutes go down), one `held` (warned, missed at this check) is left
 * as it is, and any other (the vessel left the path, or passed the zone) is cleared. One statement.
 */
export async function applyDegradeWarnings(
  db: Queryable,
  warnings: readonly { deviceId: number; detail: string }[],
  held: readonly number[] = [],
) {
  const [row] = await db.query<{ raised: number; kept: number; cleared: number }>(
    `WITH w AS (SELECT * FROM unnest($1::int[], $2::text[]) AS w(device_id, detail)),
     kept AS (UPDATE alarms a SET detail = w.detail, last_seen_at = now() FROM w
               WHERE a.device_id = w.device_id AND a.code = $3 AND a.cleared_at IS NULL RETURNING a.device_id),
     raised AS (INSERT INTO alarms (device_id, code, severity, raised_at, last_seen_at, detail)
                SELECT w.device_id, $3, 'minor', now(), now(), w.detail FROM w JOIN devices d ON d.id = w.device_id
                 WHERE w.device_id NOT IN (SELECT device_id FROM kept)
                ON CONFLICT (device_id, code) WHERE cleared_at IS NULL DO NOTHING RETURNING id),
     cleared AS (UPDATE alarms a SET cleared_at = now()
                  WHERE a.code = $3 AND a.cleared_at IS NULL AND a.device_id NOT IN (SELECT device_id FROM w)
                    AND a.device_id <> ALL($4::int[]) RETURNING id)
     SELECT (SELECT count(*) FROM raised)::int AS raised, (SELECT count(*) FROM kept)::int AS kept, (SELECT count(*) FROM cleared)::int AS cleared`,
    [warnings.map((w) => w.deviceId), warnings.map((w) => w.detail), DEGRADE_ALARM_CODE, held],
  );
  return row!;
}
