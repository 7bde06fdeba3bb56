import type { Queryable } from '../../db/connection';

// The vessel page's links (migration 032): current state, the lanes of a window, its failovers and per-link time.

export interface LinkSegment {
  from: number;
  to: number;
  state: string;
  active: boolean;
}

export interface LinkLane {
  linkId: string;
  kind: string;
  /** Its place in the router's preference now (0: the primary); null: no longer reported. */
  priority: number | null;
  segments: LinkSegment[];
}

const MS = (column: string) => `(extract(epoch FROM ${column}) * 1000)::float8`;

/** The vessel's links now, in the router's order of preference. */
export const currentLinks = (db: Queryable, deviceId: number) =>
  db.query<{
    linkId: string;
    kind: string;
    priority: number;
    state: string;
    active: boolean;
    latencyMs: number | null;
    downMbps: number | null;
    upMbps: number | null;
    signal: number | null;
    snr: number | null;
    obstructionPct: number | null;
    reportedAt: Date;
    since: Date;
  }>(
    `SELECT link_id AS "linkId", kind, priority, state, active, latency_ms AS "latencyMs", down_mbps AS "downMbps", up_mbps AS "upMbps",
            signal, snr, obstruction_pct AS "obstructionPct", reported_at AS "reportedAt", since
       FROM device_links WHERE device_id = $1 ORDER BY priority`,
    [deviceId],
  );

/**
 * One lane per link seen in [from, to): its state from the last change before the window (or, for a
 * link that has not changed since its changes were pruned, its current state), then each change.
 */
export async function linkLanes(db: Queryable, deviceId: number, from: number, to: number): Promise<LinkLane[]> {
  const rows = await db.query<{ linkId: string; kind: string; state: string; active: boolean; at: number; priority: number | null }>(
    `WITH changes AS (
       SELECT link_id, kind, state, active, ${MS('at')} AS at FROM link_changes
        WHERE device_id = $1 AND at >= to_timestamp($2::float8 / 1000) AND at < to_timestamp($3::float8 / 1000)
       UNION ALL
       (SELECT DISTINCT ON (link_id) link_id, kind, state, active, $2::float8 FROM link_changes
         WHERE device_id = $1 AND at < to_timestamp($2::float8 / 1000) ORDER BY link_id, at DESC)
     ), known AS (SELECT * FROM changes
       UNION ALL
       SELECT l.link_id, l.kind, l.state, l.active, greatest($2::float8, ${MS('l.since')}) FROM device_links l
        WHERE l.device_id = $1 AND l.since < to_timestamp($3::float8 / 1000) AND NOT EXISTS (SELECT 1 FROM changes c WHERE c.link_id = l.link_id))
     SELECT k.link_id AS "linkId", k.kind, k.state, k.active, k.at, d.priority FROM known k
       LEFT JOIN device_links d ON d.device_id = $1 AND d.link_id = k.link_id
      ORDER BY d.priority NULLS LAST, k.link_id, k.at`,
    [deviceId, from, to],
  );
  const lanes = new Map<string, LinkLane>();
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
  db.query<{
    linkId: string;
    kind: string;
    upSeconds: number;
    standbySeconds: number;
    downSeconds: number;
    activeSeconds: number;
    samples: number;
    latencyMs: number | null;
    signal: number | null;
    snr: number | null;
    obstructionPct: number | null;
  }>(
    `SELECT link_id AS "linkId", (array_agg(kind ORDER BY hour_start DESC))[1] AS kind,
            round(sum(up_s))::float8 AS "upSeconds", round(sum(standby_s))::float8 AS "standbySeconds",
            round(sum(down_s))::float8 AS "downSeconds", round(sum(active_s))::float8 AS "activeSeconds", sum(samples)::int AS samples,
            (sum(latency_sum) / nullif(sum(latency_n), 0))::float8 AS "latencyMs", (sum(signal_sum) / nullif(sum(signal_n), 0))::float8 AS signal,
            (sum(snr_sum) / nullif(sum(snr_n), 0))::float8 AS snr, (sum(obstruction_sum) / nullif(sum(obstruction_n), 0))::float8 AS "obstructionPct"
       FROM link_hourly
      WHERE device_id = $1 AND hour_start >= date_trunc('hour', to_timestamp($2::float8 / 1000)) AND hour_start < to_timestamp($3::float8 / 1000)
      GROUP BY link_id ORDER BY link_id`,
    [deviceId, from, to],
  );
