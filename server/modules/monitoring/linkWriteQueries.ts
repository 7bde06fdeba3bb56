import type { Queryable } from '../../db/connection';
import type { DeviceReport } from '../../../src/domain/reportSchema';
import { onBackupNow } from '../../../src/domain/links';
import { trackLinks, type LinkNow, type LinkUpdate } from './linkTracker';

// The ingest's SQL for a vessel's links (migration 032): read the current links, write what its newer reports changed.

const ms = (r: DeviceReport) => Date.parse(r.deviceTime);
const at = (t: number) => new Date(t).toISOString();

/**
 * Keeps the links of the devices whose newer reports (in time order) carry some, from their current
 * links (`before`, device_state.links): state changes and failovers logged, ended hours added to
 * link_hourly. Answers each such device's links now, for its latest state; nothing is written for
 * a group without links.
 */
export async function recordLinks(
  tx: Queryable,
  newer: readonly { id: number; before: LinkNow[] | null; reports: readonly DeviceReport[] }[],
): Promise<Map<number, LinkNow[]>> {
  const withLinks = newer.filter((d) => d.reports.some((r) => r.links));
  const current = new Map<number, LinkNow[]>();
  if (!withLinks.length) return current;
  const updates: { id: number; update: LinkUpdate }[] = withLinks.map((d) => ({
    id: d.id,
    update: trackLinks(
      d.before ?? [],
      d.reports.map((r) => ({ ms: ms(r), links: r.links })),
    ),
  }));
  for (const { id, update } of updates) current.set(id, update.current);
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
  if (hours.length)
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
  return current;
}

/** Sets the devices' current links on their latest states (the demo's history, written apart from the ingest). */
export async function saveCurrentLinks(tx: Queryable, links: Map<number, LinkNow[]>): Promise<void> {
  await tx.query(
    `UPDATE device_state s SET links = u.links, on_backup = u.on_backup
       FROM unnest($1::int[], $2::json[], $3::boolean[]) AS u(id, links, on_backup) WHERE s.device_id = u.id`,
    [[...links.keys()], [...links.values()].map((l) => JSON.stringify(l)), [...links.values()].map(onBackupNow)],
  );
}
