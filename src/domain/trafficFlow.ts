import { latLngToCell } from 'h3-js';

/**
 * The fleet's traffic (docs/architecture.md, "Degradation ahead"): per H3 cell and heading sector,
 * the headings the fleet's vessels sailed on there, summed as unit vectors. Vessels keep to lanes,
 * so where a vessel will be in some hours is better told by where the fleet went from here, on
 * about its heading, than by a straight line: the projected path turns where the lane turns.
 * Counted by the leader with the coverage (server/modules/vessel/trafficQueries.ts); read by the
 * prediction (src/domain/degradeAhead.ts, projectPath) and by bench:predict.
 */

/** The H3 resolution of the traffic's cells (about 40 km across). */
export const FLOW_RES = 4;
/** Heading sectors of 45°: a lane sailed both ways keeps its two directions apart. */
export const FLOW_SECTORS = 8;
/** A cell's sectors whose mean heading is within this many degrees of the vessel's are followed. */
export const FLOW_FOLLOW_DEG = 60;
/** Fewer reports than this (the sectors followed, together) say nothing: the path goes straight on. */
export const FLOW_MIN_SAMPLES = 10;
/** Reports of a vessel slower than this (kn) are not traffic: it is not under way. */
export const FLOW_MIN_SPEED_KN = 3;

/** A cell's reports in one sector: how many, and their headings' unit vectors summed. */
export interface FlowFigures {
  samples: number;
  east: number;
  north: number;
}
/** The traffic of a cell (H3 index, as h3-js writes it) in a sector. */
export type FlowLookup = (cell: string, sector: number) => FlowFigures | undefined;

const rad = (d: number) => (d * Math.PI) / 180;
const deg = (r: number) => (r * 180) / Math.PI;
const norm360 = (d: number) => ((d % 360) + 360) % 360;
/** The angle between two headings, 0-180°. */
const apart = (a: number, b: number) => Math.abs(((norm360(a - b) + 180) % 360) - 180);

export const flowSector = (heading: number) => Math.floor(norm360(heading) / (360 / FLOW_SECTORS)) % FLOW_SECTORS;

/** A report's part of its sector: its heading as a unit vector. */
export const headingVector = (heading: number) => ({ east: Math.sin(rad(heading)), north: Math.cos(rad(heading)) });

/** The cell a position's traffic is kept in. */
export const flowCell = (lat: number, lon: number) => latLngToCell(lat, lon, FLOW_RES);

/**
 * The heading the fleet sailed on in `cell` going about the way of `heading`: the mean of the
 * sectors (the vessel's and those either side) whose own mean is within FLOW_FOLLOW_DEG of it;
 * null when they hold fewer than FLOW_MIN_SAMPLES reports.
 */
export function flowHeading(flow: FlowLookup, cell: string, heading: number): number | null {
  const s = flowSector(heading);
  let east = 0;
  let north = 0;
  let samples = 0;
  for (const k of [s - 1, s, s + 1]) {
    const f = flow(cell, (k + FLOW_SECTORS) % FLOW_SECTORS);
    if (!f || !f.samples || apart(deg(Math.atan2(f.east, f.north)), heading) > FLOW_FOLLOW_DEG) continue;
    east += f.east;
    north += f.north;
    samples += f.samples;
  }
  if (samples < FLOW_MIN_SAMPLES || Math.hypot(east, north) < 1e-9) return null;
  return norm360(deg(Math.atan2(east, north)));
}
