import { failoverReason, LINK_GAP_MAX_MS, type CurrentLink, type FailoverReason, type ReportLink } from '../../../src/domain/links';

// What a vessel's newer reports do to its links (migration 032; docs/architecture.md, "Links"),
// worked out in memory by the ingest writer and written in a few statements (linkWriteQueries.ts).

const HOUR_MS = 3_600_000;

/** A link's current state (in device_state.links), with its hour in progress (migration 032). */
export interface LinkNow extends CurrentLink<number> {
  acc: LinkHour | null;
}

export interface LinkChange {
  at: number;
  linkId: string;
  kind: string;
  state: string;
  active: boolean;
}

export interface Failover {
  at: number;
  fromLink: string | null;
  toLink: string | null;
  reason: FailoverReason;
}

/** Additions to one (hour, link) row of link_hourly. */
export interface LinkHour {
  hourStart: number;
  linkId: string;
  kind: string;
  up: number;
  standby: number;
  down: number;
  active: number;
  samples: number;
  latency: [number, number];
  signal: [number, number];
  snr: [number, number];
  obstruction: [number, number];
}

export interface LinkUpdate {
  current: LinkNow[];
  changes: LinkChange[];
  failovers: Failover[];
  /** The hours that ended: to add to link_hourly. */
  hours: LinkHour[];
}

/** The parts of [from, to) in each clock hour. */
function* hourParts(from: number, to: number): Generator<[number, number]> {
  for (let h = Math.floor(from / HOUR_MS) * HOUR_MS; h < to; h += HOUR_MS) yield [h, Math.min(to, h + HOUR_MS) - Math.max(from, h)];
}

const add = (sum: [number, number], value: number | null | undefined) => {
  if (value == null) return;
  sum[0] += 1;
  sum[1] += value;
};

const emptyHour = (hourStart: number, link: { linkId: string; kind: string }): LinkHour => ({
  hourStart,
  linkId: link.linkId,
  kind: link.kind,
  up: 0,
  standby: 0,
  down: 0,
  active: 0,
  samples: 0,
  latency: [0, 0],
  signal: [0, 0],
  snr: [0, 0],
  obstruction: [0, 0],
});

/**
 * A vessel's links after its reports newer than its latest state (in time order), from `before`
 * (its current links; empty for a vessel never seen with links). Reports without `links` change
 * nothing; a link a report no longer lists is gone from the current state. Each link's hour in
 * progress is carried in its `acc`; the hours that end are answered in `hours`.
 */
export function trackLinks(before: readonly LinkNow[], reports: readonly { ms: number; links?: ReportLink[] }[]): LinkUpdate {
  let current = before.map((l) => ({ ...l, acc: l.acc ? { ...l.acc } : null }));
  const changes: LinkChange[] = [];
  const failovers: Failover[] = [];
  /** Ended hours by hour and link: a link gone and back within an hour ends that hour twice, and one statement may write a row once. */
  const hours = new Map<string, LinkHour>();
  const end = (acc: LinkHour) => {
    const key = `${acc.hourStart}:${acc.linkId}`;
    const seen = hours.get(key);
    if (!seen) return void hours.set(key, acc);
    for (const f of ['up', 'standby', 'down', 'active', 'samples'] as const) seen[f] += acc[f];
    for (const f of ['latency', 'signal', 'snr', 'obstruction'] as const) seen[f] = [seen[f][0] + acc[f][0], seen[f][1] + acc[f][1]];
  };
  /** The link's hour row for `hourStart`, the one in progress ended when the hour ends. */
  const hourOf = (link: LinkNow, hourStart: number) => {
    if (link.acc && link.acc.hourStart !== hourStart) {
      end(link.acc);
      link.acc = null;
    }
    return (link.acc ??= emptyHour(hourStart, link));
  };
  for (const report of reports) {
    if (!report.links) continue;
    const last = current.length ? current[0]!.reportedAt : Number.NaN;
    const gap = report.ms - last;
    if (current.length && !(gap > 0)) continue;
    // The time since the previous report is the previous states' (a long silence is no link's).
    if (gap <= LINK_GAP_MAX_MS)
      for (const link of current)
        for (const [h, part] of hourParts(last, report.ms)) {
          const row = hourOf(link, h);
          row[link.state as 'up' | 'standby' | 'down'] += part / 1000;
          if (link.active) row.active += part / 1000;
        }
    const byId = new Map(current.map((l) => [l.linkId, l]));
    const next = report.links.map((l, priority): LinkNow => {
      const prev = byId.get(l.id);
      byId.delete(l.id);
      const changed = !prev || prev.state !== l.state || prev.active !== l.active || prev.kind !== l.kind;
      if (changed) changes.push({ at: report.ms, linkId: l.id, kind: l.kind, state: l.state, active: l.active });
      const link: LinkNow = {
        linkId: l.id,
        kind: l.kind,
        priority,
        state: l.state,
        active: l.active,
        latencyMs: l.latencyMs ?? null,
        downMbps: l.downMbps ?? null,
        upMbps: l.upMbps ?? null,
        signal: l.signal ?? null,
        snr: l.snr ?? null,
        obstructionPct: l.obstructionPct ?? null,
        reportedAt: report.ms,
        since: changed || !prev ? report.ms : prev.since,
        acc: prev?.acc ?? null,
      };
      const row = hourOf(link, Math.floor(report.ms / HOUR_MS) * HOUR_MS);
      row.samples += 1;
      add(row.latency, l.latencyMs);
      add(row.signal, l.signal);
      add(row.snr, l.snr);
      add(row.obstruction, l.obstructionPct);
      return link;
    });
    // A link no longer reported: its hour in progress is kept as it is.
    for (const gone of byId.values()) if (gone.acc) end(gone.acc);
    const was = current.find((l) => l.active);
    const now = next.find((l) => l.active);
    if (current.length && was?.linkId !== now?.linkId) {
      // The link it left, as this report tells it (gone from the report: lost).
      const left = was && (next.find((l) => l.linkId === was.linkId) ?? { kind: was.kind, state: 'down', priority: was.priority });
      failovers.push({
        at: report.ms,
        fromLink: was?.linkId ?? null,
        toLink: now?.linkId ?? null,
        reason: failoverReason(left, now?.priority ?? Number.POSITIVE_INFINITY),
      });
    }
    current = next;
  }
  return { current, changes, failovers, hours: [...hours.values()] };
}
