import type { Queryable } from '../../db/connection';
import type { CurrentLink, LinkKind, LinkLane, LinkState, LinkTime } from '../../../src/domain/links';

// The vessel page's links (migration 032): current state, the lanes of a window, its failovers and per-link time.

const MS = (column: string) => `(extract(epoch FROM ${column}) * 1000)::float8`;

/** The columns of a link in device_state.links (migration 032), for json_to_recordset. */
const LINK_RECORD = `("linkId" text, kind text, priority int, state text, active boolean, "latencyMs" real, "downMbps" real, "upMbps" real,
  signal real, snr real, "obstructionPct" real, "reportedAt" float8, since float8)`;

/** The current links of the latest states `s` as rows `l` (a lateral join). */
export const CURRENT_LINKS_SQL = `CROSS JOIN LATERAL json_to_recordset(COALESCE(s.links, '[]'::json)) AS l${LINK_RECORD}`;
const linksOf = (state: string) => `json_to_recordset(COALESCE(${state}.links, '[]'::json)) AS l${LINK_RECORD}`;
/** The link carrying the traffic of the latest state `state`, as { linkId, kind, priority } (null: none); the status monitor's column. */
export const activeLinkSql = (state: string) =>
  `(SELECT json_build_object('linkId', l."linkId", 'kind', l.kind, 'priority', l.priority) FROM ${linksOf(state)} WHERE l.active LIMIT 1)`;
/** The latest state `state` has the traffic on a backup link (set by the ingest with the links, migration 037; null without links: not true). */
export const onBackupSql = (state: string) => `${state}.on_backup`;

const sum2 = (name: string) => `(a->'${name}'->>0)::int, (a->'${name}'->>1)::float8`;

/** link_hourly's rows and each link's hour in progress (device_state.links[].acc), as one relation of link_hourly's columns. */
export const LINK_HOURS_SQL = `(SELECT device_id, hour_start, link_id, kind, up_s, standby_s, down_s, active_s, samples, latency_n, latency_sum,
     signal_n, signal_sum, snr_n, snr_sum, obstruction_n, obstruction_sum FROM link_hourly
   UNION ALL
   SELECT s.device_id, to_timestamp((a->>'hourStart')::float8 / 1000), a->>'linkId', a->>'kind', (a->>'up')::real, (a->>'standby')::real,
          (a->>'down')::real, (a->>'active')::real, (a->>'samples')::int, ${sum2('latency')}, ${sum2('signal')}, ${sum2('snr')}, ${sum2('obstruction')}
     FROM device_state s CROSS JOIN LATERAL json_array_elements(s.links) e CROSS JOIN LATERAL (SELECT e->'acc' AS a) x
    WHERE s.links IS NOT NULL AND json_typeof(a) = 'object')`;

/** The vessel's links now, in the router's order of preference. */
export const currentLinks = (db: Queryable, deviceId: number) =>
  db.query<CurrentLink<number>>(`SELECT l.* FROM device_state s ${CURRENT_LINKS_SQL} WHERE s.device_id = $1 ORDER BY l.priority`, [
    deviceId,
  ]);

/**
 * One lane per link seen in [from, to): its state from the last change before the window (or, for a
 * link that has not changed since its changes were pruned, its current state), then each change.
 */
export async function linkLanes(db: Queryable, deviceId: number, from: number, to: number): Promise<LinkLane<number>[]> {
  const rows = await db.query<{ linkId: string; kind: LinkKind; state: LinkState; active: boolean; at: number; priority: number | null }>(
    `WITH changes AS (
       SELECT link_id, kind, state, active, ${MS('at')} AS at FROM link_changes
        WHERE device_id = $1 AND at >= to_timestamp($2::float8 / 1000) AND at < to_timestamp($3::float8 / 1000)
       UNION ALL
       (SELECT DISTINCT ON (link_id) link_id, kind, state, active, $2::float8 FROM link_changes
         WHERE device_id = $1 AND at < to_timestamp($2::float8 / 1000) ORDER BY link_id, at DESC)
     ), known AS (SELECT * FROM changes
       UNION ALL
       SELECT l."linkId", l.kind, l.state, l.active, greatest($2::float8, l.since) FROM device_state s ${CURRENT_LINKS_SQL}
        WHERE s.device_id = $1 AND l.since < $3::float8 AND NOT EXISTS (SELECT 1 FROM changes c WHERE c.link_id = l."linkId")),
     now AS (SELECT l."linkId", l.priority FROM device_state s ${CURRENT_LINKS_SQL} WHERE s.device_id = $1)
     SELECT k.link_id AS "linkId", k.kind, k.state, k.active, k.at, n.priority FROM known k
       LEFT JOIN now n ON n."linkId" = k.link_id
      ORDER BY n.priority NULLS LAST, k.link_id, k.at`,
    [deviceId, from, to],
  );
  const lanes = new Map<string, LinkLane<number>>();
  for (const row of rows) {
    let lane = lanes.get(row.linkId);
    if (!lane) {
      lane = { linkId: row.linkId, kind: row.kind, priority: row.priority, segments: [] };
      lanes.set(row.linkId, lane);
    }
    const last = lane.segments[lane.segments.length - 1];
    if (last) last.to = row.at;
    lane.segments.push({ from: row.at, to, state: row.state, active: row.active });
  }
  return [...lanes.values()];
}

/** The failovers of [from, to), oldest first. */
export const windowFailovers = (db: Queryable, deviceId: number, from: number, to: number) =>
  db.query<{ at: Date; fromLink: string | null; toLink: string | null; reason: string }>(
    `SELECT at, from_link AS "fromLink", to_link AS "toLink", reason FROM link_failovers
      WHERE device_id = $1 AND at >= to_timestamp($2::float8 / 1000) AND at < to_timestamp($3::float8 / 1000) ORDER BY at`,
    [deviceId, from, to],
  );

/** Per link, the seconds up / standby / down / carrying the traffic and the average figures over the hours of [from, to). */
export const linkAvailability = (db: Queryable, deviceId: number, from: number, to: number) =>
  db.query<LinkTime>(
    `SELECT link_id AS "linkId", (array_agg(kind ORDER BY hour_start DESC))[1] AS kind,
            round(sum(up_s))::float8 AS "upSeconds", round(sum(standby_s))::float8 AS "standbySeconds",
            round(sum(down_s))::float8 AS "downSeconds", round(sum(active_s))::float8 AS "activeSeconds", sum(samples)::int AS samples,
            (sum(latency_sum) / nullif(sum(latency_n), 0))::float8 AS "latencyMs", (sum(signal_sum) / nullif(sum(signal_n), 0))::float8 AS signal,
            (sum(snr_sum) / nullif(sum(snr_n), 0))::float8 AS snr, (sum(obstruction_sum) / nullif(sum(obstruction_n), 0))::float8 AS "obstructionPct"
       FROM ${LINK_HOURS_SQL} h
      WHERE device_id = $1 AND hour_start >= date_trunc('hour', to_timestamp($2::float8 / 1000)) AND hour_start < to_timestamp($3::float8 / 1000)
      GROUP BY link_id ORDER BY link_id`,
    [deviceId, from, to],
  );
