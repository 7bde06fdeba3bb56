import { latLngToCell } from 'h3-js';
import { SimVessel } from '../server/simulator/vessel';
import { SNR_HIST_BUCKETS, histMedian, snrBucket } from '../src/domain/coverage';
import {
  DEGRADE_DEFAULTS,
  DEGRADE_RES,
  confirmWarnings,
  degradeAhead,
  type CellFigures,
  type DegradeThresholds,
  type VesselNow,
  type WarningStreak,
} from '../src/domain/degradeAhead';
import { SMOKE, sized } from './smoke';
import { skyAt } from '../server/simulator/sky';
import { SATELLITES } from '../src/domain/satellites';
import { portNamed } from '../src/domain/ports';
import { FLOW_MIN_SPEED_KN, flowCell, flowSector, headingVector, type FlowFigures, type FlowLookup } from '../src/domain/trafficFlow';

/**
 * bench:predict — how well "degradation ahead" (src/domain/degradeAhead.ts) warns, against the
 * simulator's sky (server/simulator/sky.ts: beams with weak edges, rain, mast shadow) as ground
 * truth. VESSELS simulated vessels (the demo's routes, seed 1) sail DAYS days, a report every STEP
 * minutes. The coverage is built from days 1-TRAIN only (per satellite and H3 cell at the
 * prediction's resolution: reports, locked share, SNR histogram, as the server keeps it), and the
 * fleet's traffic the paths follow (src/domain/trafficFlow.ts) from the same days; then days
 * TRAIN+1 to DAYS are replayed with the prediction run every 5 minutes for every vessel. It prints:
 * - recall: of the link losses lasting 5 minutes or more, the share warned at least 30 minutes
 *   ahead (a warning active 30 minutes before the loss, whose predicted window held it: from entering
 *   the zone's cell to leaving it, 30 minutes either side); of all losses, and of the sky's alone
 *   (the terminal's random outages, two glitches back to back, no map can foresee);
 * - precision: of the warnings (raised after DEGRADE_CONFIRM_CHECKS checks in a row, cleared after
 *   DEGRADE_CLEAR_CHECKS missed, as the server does), the share followed by a loss in the predicted window;
 * - the lead times (loss start minus the warning's first issue);
 * - the prediction's CPU for 10,000 vessels (the fleet's states repeated).
 * Prints figures; asserts nothing. BENCH_SMOKE=1: 40 vessels over 4 days (2 to learn).
 * BENCH_LOCKED_BELOW / BENCH_SNR_BELOW try other thresholds; BENCH_DESTINATION=0 projects without the
 * voyages' ports (the vessels' destinations, found among the product's ports as the server finds
 * them for a fleet without port geofences of its own).
 */
const VESSELS = Number(process.env.BENCH_VESSELS ?? sized(1_000, 40));
const DAYS = Number(process.env.BENCH_DAYS ?? sized(30, 4));
const TRAIN = Number(process.env.BENCH_TRAIN_DAYS ?? sized(20, 2));
const STEP_MIN = Number(process.env.BENCH_STEP_MIN ?? 1);
const PREDICT_EVERY_MIN = 5;
const WITH_DESTINATION = process.env.BENCH_DESTINATION !== '0';
const LOSS_MIN = 5;
const LEAD_MIN = 30;
/** The predicted window: from entering the zone's cell to leaving it (the path's time in it), 30 minutes either side. */
const SLACK_MIN = 30;
const thresholds: DegradeThresholds = {
  ...DEGRADE_DEFAULTS,
  lockedBelowPct: Number(process.env.BENCH_LOCKED_BELOW ?? DEGRADE_DEFAULTS.lockedBelowPct),
  snrBelowDb: Number(process.env.BENCH_SNR_BELOW ?? DEGRADE_DEFAULTS.snrBelowDb),
};

const MIN = 60_000;
const start = Date.UTC(2026, 9, 1);
const fleet = Array.from({ length: VESSELS }, (_, i) => new SimVessel(i, 1, start, undefined, 'vsat'));

interface Tally {
  samples: number;
  locked: number;
  hist: number[];
}
const coverage = new Map<string, Tally>();
/** The fleet's traffic of days 1-TRAIN (src/domain/trafficFlow.ts), keyed "cell|sector", as the server counts it. */
const traffic = new Map<string, FlowFigures>();
const flow: FlowLookup = (cell, sector) => traffic.get(`${cell}|${sector}`);
interface Episode {
  vessel: number;
  issuedAt: number;
  end: number;
  zoneFrom: number;
  zoneTo: number;
  /** Each check while it was active: [when, the zone's predicted entry, its predicted exit]. */
  checks: [number, number, number][];
}
const episodes: Episode[] = [];
const open = new Map<number, Episode>();
let streaks = new Map<number, WarningStreak>();
let predictCpuMs = 0;
/** A loss is the sky's (a beam's edge or rim, rain, the mast) when the satellite the vessel was on is not clear where it was lost; else a random outage of the terminal. */
const losses: { vessel: number; at: number; minutes: number; sky: boolean; cause: string }[] = [];
const lossCause = new Map<number, string>();
const previous = new Map<number, { satellite: string }>();
const downSince = new Map<number, number>();
const lastSeen = new Map<number, number>();
const latest = new Map<number, VesselNow & { locked: boolean }>();

const t0 = performance.now();
let figures: Map<string, CellFigures> | null = null;
const lookup = (satellite: string, cell: string) => figures!.get(`${satellite}|${cell}`);
let predictRounds = 0;

for (let now = start + STEP_MIN * MIN; now <= start + DAYS * 1440 * MIN; now += STEP_MIN * MIN) {
  const learning = now <= start + TRAIN * 1440 * MIN;
  if (!learning && !figures) {
    figures = new Map(
      [...coverage].map(([key, t]) => [
        key,
        { samples: t.samples, lockedPct: Math.round((100 * t.locked) / t.samples), medianSnr: histMedian(t.hist) },
      ]),
    );
  }
  for (let i = 0; i < VESSELS; i++) {
    const report = fleet[i]!.tick(now).at(-1);
    if (!report || !report.satellite) continue;
    if (learning) {
      const key = `${report.satellite.name}|${latLngToCell(report.lat, report.lon, DEGRADE_RES)}`;
      let t = coverage.get(key);
      if (!t) coverage.set(key, (t = { samples: 0, locked: 0, hist: new Array<number>(SNR_HIST_BUCKETS).fill(0) }));
      t.samples += 1;
      if (report.modemLock) t.locked += 1;
      t.hist[snrBucket(report.snr)]! += 1;
      if (report.speed >= FLOW_MIN_SPEED_KN) {
        const key = `${flowCell(report.lat, report.lon)}|${flowSector(report.heading)}`;
        const v = headingVector(report.heading);
        const f = traffic.get(key) ?? { samples: 0, east: 0, north: 0 };
        traffic.set(key, { samples: f.samples + 1, east: f.east + v.east, north: f.north + v.north });
      }
      continue;
    }
    latest.set(i, {
      lat: report.lat,
      lon: report.lon,
      heading: report.heading,
      speedKn: report.speed,
      satellite: report.satellite.name,
      hasBackup: false,
      snr: report.snr,
      locked: report.modemLock,
      // The voyage under way, as the server finds it (src/domain/ports.ts); BENCH_DESTINATION=0: none.
      ...(WITH_DESTINATION ? { destination: portNamed(fleet[i]!.voyage.destination)?.at } : {}),
    });
    // A silence (the vessel offline) leaves what happened meanwhile unknown: a loss under way is not counted.
    if (now - (lastSeen.get(i) ?? now) > STEP_MIN * MIN) downSince.delete(i);
    lastSeen.set(i, now);
    const down = downSince.get(i);
    if (!report.modemLock && down === undefined) {
      downSince.set(i, now);
      const sat = SATELLITES.find((x) => x.name === (previous.get(i)?.satellite ?? report.satellite!.name))!;
      lossCause.set(i, skyAt(sat, [report.lat, report.lon], { t: now, heading: report.heading, vesselIndex: i }).cause);
    }
    previous.set(i, { satellite: report.satellite.name });
    if (report.modemLock && down !== undefined) {
      if (now - down >= LOSS_MIN * MIN) {
        const cause = lossCause.get(i) ?? 'clear';
        losses.push({ vessel: i, at: down, minutes: (now - down) / MIN, sky: cause !== 'clear', cause });
      }
      downSince.delete(i);
    }
  }
  if (learning || (now - start) % (PREDICT_EVERY_MIN * MIN) >= STEP_MIN * MIN) continue;
  predictRounds += 1;
  predict(now);
}
const simSeconds = (performance.now() - t0) / 1000;

/** One check of every vessel, its warnings confirmed and held as the server does, kept as episodes. */
function predict(now: number) {
  const cpu = process.cpuUsage();
  const found = new Map<number, NonNullable<ReturnType<typeof degradeAhead>>>();
  for (const [i, v] of latest) {
    const w = v.locked ? degradeAhead(v, lookup, thresholds, flow) : null;
    if (w) found.set(i, w);
  }
  const confirmation = confirmWarnings(streaks, found.keys());
  streaks = confirmation.streaks;
  for (const i of latest.keys()) {
    const w = confirmation.confirmed.has(i) ? found.get(i)! : null;
    const episode = open.get(i);
    if (confirmation.held.has(i)) continue;
    if (!w) {
      if (episode) open.delete(i);
      continue;
    }
    const zoneAt = now + w.minutes * MIN;
    const zoneEnd = now + w.untilMinutes * MIN;
    if (!episode) {
      const e: Episode = { vessel: i, issuedAt: now, end: now, zoneFrom: zoneAt, zoneTo: zoneEnd, checks: [[now, zoneAt, zoneEnd]] };
      episodes.push(e);
      open.set(i, e);
    } else {
      episode.end = now;
      episode.zoneFrom = Math.min(episode.zoneFrom, zoneAt);
      episode.zoneTo = Math.max(episode.zoneTo, zoneEnd);
      episode.checks.push([now, zoneAt, zoneEnd]);
    }
  }
  const used = process.cpuUsage(cpu);
  predictCpuMs += (used.user + used.system) / 1000;
}

/**
 * Recall: a loss is warned when a warning was active 30+ minutes before it, with the loss inside its
 * predicted window. Precision: a warning is right when one of its vessel's losses starts inside its
 * window.
 */
function score() {
  const byVessel = new Map<number, Episode[]>();
  for (const e of episodes) byVessel.set(e.vessel, [...(byVessel.get(e.vessel) ?? []), e]);
  const leads: number[] = [];
  const warnedBy = new Map<string, number>();
  for (const loss of losses) {
    const e = (byVessel.get(loss.vessel) ?? []).find((ep) =>
      ep.checks.some(
        ([at, from, to]) => at <= loss.at - LEAD_MIN * MIN && loss.at >= from - SLACK_MIN * MIN && loss.at <= to + SLACK_MIN * MIN,
      ),
    );
    if (!e) continue;
    warnedBy.set(loss.cause, (warnedBy.get(loss.cause) ?? 0) + 1);
    leads.push((loss.at - e.issuedAt) / MIN);
  }
  const lossesOf = new Map<number, number[]>();
  for (const l of losses) lossesOf.set(l.vessel, [...(lossesOf.get(l.vessel) ?? []), l.at]);
  const right = episodes.filter((e) =>
    (lossesOf.get(e.vessel) ?? []).some((at) => at >= e.zoneFrom - SLACK_MIN * MIN && at <= e.zoneTo + SLACK_MIN * MIN),
  ).length;
  const warned = leads.length;
  return { leads, warnedBy, warned, skyWarned: warned - (warnedBy.get('clear') ?? 0), right };
}

// The prediction's cost at 10,000 vessels: the fleet's last states, repeated with their headings turned a little.
const states = [...latest.values()].filter((v) => v.locked);
const many: VesselNow[] = Array.from({ length: 10_000 }, (_, k) => {
  const v = states[k % Math.max(1, states.length)]!;
  return { ...v, heading: (v.heading + Math.floor(k / Math.max(1, states.length)) * 7) % 360 };
});
const cpu = process.cpuUsage();
let tenThousandWarned = 0;
if (states.length) for (const v of many) if (degradeAhead(v, lookup, thresholds, flow)) tenThousandWarned += 1;
const used = process.cpuUsage(cpu);

const pct = (xs: number[], p: number) =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]! : NaN;
const share = (a: number, b: number) => (b ? (a / b).toFixed(2) : 'n/a');
console.log(
  `\nbench:predict — ${VESSELS.toLocaleString('en')} simulated vessels, ${DAYS} days at a report every ${STEP_MIN} min; coverage and traffic from days 1-${TRAIN} (${coverage.size.toLocaleString('en')} satellite × cell pairs, ${traffic.size.toLocaleString('en')} cell × heading pairs), replay of days ${TRAIN + 1}-${DAYS}, paths ${WITH_DESTINATION ? 'toward the voyages’ ports' : 'without the voyages’ ports'}; thresholds: poor under ${thresholds.lockedBelowPct} % locked or ${thresholds.snrBelowDb} dB median SNR${SMOKE ? ' (smoke: figures measure nothing)' : ''}`,
);
console.log(`simulated in ${simSeconds.toFixed(0)} s`);
const skyLosses = losses.filter((l) => l.sky).length;
const causes = [...new Set(losses.map((l) => l.cause))].sort();
const countOf = (cause: string) => losses.filter((l) => l.cause === cause).length;
console.log(
  `link losses of ${LOSS_MIN} min or more   ${losses.length.toLocaleString('en')}: ${skyLosses.toLocaleString('en')} the sky's, ${(losses.length - skyLosses).toLocaleString('en')} random outages of the terminal ("clear"); by cause: ${causes.map((c) => `${c} ${countOf(c)}`).join(', ')}`,
);
const r = score();
console.log(
  `warned ${LEAD_MIN} min or more ahead      ${r.warned.toLocaleString('en')}   recall ${share(r.warned, losses.length)} of all; ${share(r.skyWarned, skyLosses)} of the sky's; by cause: ${causes.map((c) => `${c} ${share(r.warnedBy.get(c) ?? 0, countOf(c))}`).join(', ')}`,
);
console.log(
  `warnings                            ${episodes.length.toLocaleString('en')}   followed by a loss in the predicted window: ${r.right.toLocaleString('en')}   precision ${share(r.right, episodes.length)}`,
);
console.log(`lead time (min)                     p10 ${pct(r.leads, 10)}   median ${pct(r.leads, 50)}   p90 ${pct(r.leads, 90)}`);
console.log(
  `prediction CPU                      ${(predictCpuMs / Math.max(1, predictRounds)).toFixed(1)} ms a round for ${VESSELS.toLocaleString('en')} vessels; ${((used.user + used.system) / 1000).toFixed(0)} ms for 10,000 vessels (${tenThousandWarned.toLocaleString('en')} warned)`,
);
