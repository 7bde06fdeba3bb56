import type { Queryable } from '../../db/connection';
import type { DeviceReport } from '../../../src/domain/reportSchema';
import { trackLinks, type LinkNow, type LinkUpdate } from './linkTracker';

// The ingest's SQL for a vessel's links (migration 032): read the current links, write what its newer reports changed.

const ms = (r: DeviceReport) => Date.parse(r.deviceTime);
const at = (t: number) => new Date(t).toISOString();

async function readLinks(tx: Queryable, ids: readonly number[]): Promise<Map<number, LinkNow[]>> {
  const rows = await tx.query<LinkNow & { deviceId: number }>(
    `SELECT device_id AS "deviceId", link_id AS "linkId", kind, priority, state, active, latency_ms AS "latencyMs",
            down_mbps AS "downMbps", up_mbps AS "upMbps", signal, snr, obstruction_pct AS "obstructionPct",
            (extract(epoch FROM reported_at) * 1000)::float8 AS "reportedAt", (extract(epoch FROM since) * 1000)::float8 AS "since"
       FROM device_links WHERE device_id = ANY($1::int[]) ORDER BY device_id, priority`,
    [ids],
  );
  const out = new Map<number, LinkNow[]>();
  for (const { deviceId, ...link } of rows) out.set(deviceId, [...(out.get(deviceId) ?? []), link]);
  return out;
}

/**
 * Keeps the links of the devices whose newer reports (in time order) carry some: their current
 * links replaced, state changes and failovers logged, hourly seconds and sums added. Nothing is
 * read or written for a group without links.
 */
export async function recordLinks(tx: Queryable, newer: readonly { id: number; reports: readonly DeviceReport[] }[]): Promise<void> {
  const withLinks = newer.filter((d) => d.reports.some((r) => r.links));
  if (!withLinks.length) return;
  const ids = withLinks.map((d) => d.id);
  const before = await readLinks(tx, ids);
  const updates: { id: number; update: LinkUpdate }[] = withLinks.map((d) => ({
    id: d.id,
    update: trackLinks(
      before.get(d.id) ?? [],
      d.reports.map((r) => ({ ms: ms(r), links: r.links })),
    ),
  }));
  const current = updates.flatMap(({ id, update }) => update.current.map((l) => ({ id, ...l })));
  await tx.query('DELETE FROM device_links WHERE device_id = ANY($1::int[])', [ids]);
  await tx.query(
    `INSERT INTO device_links (device_id, link_id, kind, priority, state, active, latency_ms, down_mbps, up_mbps, signal, snr, obstruction_pct, reported_at, since)
     SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::smallint[], $5::text[], $6::boolean[], $7::real[], $8::real[], $9::real[],
                          $10::real[], $11::real[], $12::real[], $13::timestamptz[], $14::timestamptz[])`,
    [
      current.map((l) => l.id),
      current.map((l) => l.linkId),
      current.map((l) => l.kind),
      current.map((l) => l.priority),
      current.map((l) => l.state),
      current.map((l) => l.active),
      current.map((l) => l.latencyMs),
      current.map((l) => l.downMbps),
      current.map((l) => l.upMbps),
      current.map((l) => l.signal),
      current.map((l) => l.snr),
      current.map((l) => l.obstructionPct),
      current.map((l) => at(l.reportedAt)),
      current.map((l) => at(l.since)),
    ],
  );
  const changes = updates.flatMap(({ id, update }) => update.changes.map((c) => ({ id, ...c })));
  if (changes.length)
    await tx.query(
      `INSERT INTO link_changes (device_id, at, link_id, kind, state, active)
       SELECT * FROM unnest($1::int[], $2::timestamptz[], $3::text[], $4::text[], $5::text[], $6::boolean[]) ON CONFLICT DO NOTHING`,
      [
        changes.map((c) => c.id),
        changes.map((c) => at(c.at)),
        changes.map((c) => c.linkId),
        changes.map((c) => c.kind),
        changes.map((c) => c.state),
        changes.map((c) => c.active),
      ],
    );
  const failovers = updates.flatMap(({ id, update }) => update.failovers.map((f) => ({ id, ...f })));
  if (failovers.length)
    await tx.query(
      `INSERT INTO link_failovers (device_id, at, from_link, to_link, reason)
       SELECT * FROM unnest($1::int[], $2::timestamptz[], $3::text[], $4::text[], $5::text[]) ON CONFLICT DO NOTHING`,
      [
        failovers.map((f) => f.id),
        failovers.map((f) => at(f.at)),
        failovers.map((f) => f.fromLink),
        failovers.map((f) => f.toLink),
        failovers.map((f) => f.reason),
      ],
    );
  const hours = updates.flatMap(({ id, update }) => update.hours.map((h) => ({ id, ...h })));
  const sums = ['latency', 'signal', 'snr', 'obstruction'] as const;
  await tx.query(
    `INSERT INTO link_hourly AS h (device_id, hour_start, link_id, kind, up_s, standby_s, down_s, active_s, samples,
            latency_n, latency_sum, signal_n, signal_sum, snr_n, snr_sum, obstruction_n, obstruction_sum)
     SELECT * FROM unnest($1::int[], $2::timestamptz[], $3::text[], $4::text[], $5::real[], $6::real[], $7::real[], $8::real[], $9::int[],
                          $10::int[], $11::float8[], $12::int[], $13::float8[], $14::int[], $15::float8[], $16::int[], $17::float8[])
     ON CONFLICT (device_id, hour_start, link_id) DO UPDATE SET kind = EXCLUDED.kind,
       up_s = h.up_s + EXCLUDED.up_s, standby_s = h.standby_s + EXCLUDED.standby_s, down_s = h.down_s + EXCLUDED.down_s,
       active_s = h.active_s + EXCLUDED.active_s, samples = h.samples + EXCLUDED.samples,
       ${sums.map((s) => `${s}_n = h.${s}_n + EXCLUDED.${s}_n, ${s}_sum = h.${s}_sum + EXCLUDED.${s}_sum`).join(', ')}`,
    [
      hours.map((h) => h.id),
      hours.map((h) => at(h.hourStart)),
      hours.map((h) => h.linkId),
      hours.map((h) => h.kind),
      hours.map((h) => h.up),
      hours.map((h) => h.standby),
      hours.map((h) => h.down),
      hours.map((h) => h.active),
      hours.map((h) => h.samples),
      ...sums.flatMap((s) => [hours.map((h) => h[s][0]), hours.map((h) => h[s][1])]),
    ],
  );
}
