import type { DeviceReport } from '../../src/domain/reportSchema';
import { between, mulberry32 } from './prng';
import { SimVessel } from './vessel';
import { STORY_OPENINGS } from './opening';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

export interface BackfillOptions {
  /** The simulator's seed (SIMULATOR_SEED, 1 by default): the history ends where the live vessel starts. */
  seed: number;
  /** The newest report's time (ms). */
  end: number;
  days: number;
  /** Minutes between two reports. */
  stepMinutes: number;
  /** Only the newest `denseDays` at stepMinutes, older ones at sparseStepMinutes (all at stepMinutes without them). */
  denseDays?: number;
  sparseStepMinutes?: number;
  /** The device's kind (src/domain/deviceKinds.ts): what its reports carry; a VSAT terminal without it. */
  kind?: string;
}

/** A port the vessel reached in its history (and left again at once for the other end of its route). */
export interface PortCall {
  port: string;
  /** When it was there (ms). */
  at: number;
}

export interface BackfillStory {
  reports: DeviceReport[];
  /** Its port calls, newest first. */
  portCalls: PortCall[];
  /** Where the live vessel sails from and to at `end`, the distance left (nm) and its cruising speed (kn). */
  voyage: SimVessel['voyage'];
}

/** The reports of backfillStory, alone. */
export function backfillReports(index: number, options: BackfillOptions): DeviceReport[] {
  return backfillStory(index, options).reports;
}

/**
 * A month (or `days`) of reports of demo vessel `index`, oldest first, ending at `end` exactly
 * where the live simulator (server/simulator/simulator.ts, same seed) puts the vessel when it
 * starts, so the track runs on without a jump. It is sailed backwards: a vessel of its own PRNG
 * stream starts at that place heading the other way, and its reports are turned round. Here and
 * there the vessel is silent for hours (a port call without link, a power cut), so the time
 * statistics differ from vessel to vessel and day to day.
 */
export function backfillStory(
  index: number,
  { seed, end, days, stepMinutes, denseDays = days, sparseStepMinutes = stepMinutes, kind }: BackfillOptions,
): BackfillStory {
  // Where the live vessel starts: its seed's place, or the story's (opening.ts); the live simulator carries on from the newest report.
  const liveVessel = new SimVessel(index, seed, end, STORY_OPENINGS.get(index), kind);
  const live = liveVessel.place;
  // It holds the live vessel's satellite at the start, and keeps it sailing back into that satellite's beam.
  const back = new SimVessel(
    index,
    seed,
    0,
    { distance: live.distance, direction: live.direction === 1 ? -1 : 1, stream: 7_919, tracking: live.tracking },
    kind,
  );
  const rng = mulberry32(seed * 31 + index * 977 + 5);
  const dense = denseDays * DAY_MS;
  // Silent spells: 1 to 4 of 2 to 30 hours, never in the newest day (it runs on to the start without a gap).
  const silent: [number, number][] = [];
  for (let n = 1 + Math.floor(rng() * 4); n > 0; n -= 1) {
    const from = between(rng, 26 * 60, days * 24 * 60 - 30 * 60) * MINUTE_MS;
    silent.push([from, from + between(rng, 2 * 60, 30 * 60) * MINUTE_MS]);
  }
  const out: DeviceReport[] = [];
  const portCalls: PortCall[] = [];
  let before = back.voyage;
  for (let ago = 0; ago < days * DAY_MS; ago += (ago < dense ? stepMinutes : sparseStepMinutes) * MINUTE_MS) {
    // The backwards vessel's clock runs forwards; its reports are stamped `ago` before the end.
    const reports = back.tick(ago);
    const now = back.voyage;
    // It turned at a port: going forwards in time the vessel left that port there (about then).
    if (now.destination !== before.destination) portCalls.push({ port: before.destination, at: end - ago });
    before = now;
    const report = reports[reports.length - 1];
    if (!report || silent.some(([a, b]) => ago >= a && ago < b)) continue;
    out.push({
      ...report,
      deviceTime: new Date(Math.floor((end - ago) / 1000) * 1000).toISOString(),
      heading: Math.round(((report.heading + 180) % 360) * 10) / 10,
    });
  }
  return { reports: out.reverse(), portCalls, voyage: liveVessel.voyage };
}
