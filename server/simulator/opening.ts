import { positionAt, type RouteGeometry } from './seaRoutes';
import { chooseSatellite } from './sky';

/** The step (nm) at which a starting vessel's satellite is followed from the port it left. */
const WARM_UP_STEP_NM = 30;

/**
 * The demo story's vessels placed by hand rather than by their seed (the history's backfill starts
 * there, and the live simulator carries on from its newest report): vessel 13, a vBox on Los
 * Angeles - Honolulu, sails west on Eutelsat 117 West B about four hours short of that beam's rim,
 * so that a fresh demo shows a "degradation ahead" warning within its first hour
 * (docs/architecture.md, "Degradation ahead"; tests/api/demoSeed.test.ts). Other fleets (the
 * simulator's command line, bench:predict) are placed by their seeds alone.
 */
export const STORY_OPENINGS = new Map<number, { distance: number; direction: 1 | -1 }>([[13, { distance: 1_690, direction: 1 }]]);

/**
 * The satellite a vessel holds on arriving at its place at `now`: its choice (sky.ts,
 * chooseSatellite) followed from the port it left, a step every WARM_UP_STEP_NM at its cruising
 * speed, so that a vessel sailing out of a beam is still on that beam's satellite, as at sea.
 */
export function heldSatellite(
  geo: RouteGeometry,
  place: { distance: number; direction: 1 | -1 },
  cruiseKn: number,
  now: number,
  vesselIndex: number,
): string | null {
  let state = { pointedAt: null as string | null, tracking: null as string | null };
  const sailed = place.direction === 1 ? place.distance : geo.lengthNm - place.distance;
  for (let back = sailed; ; back -= Math.min(WARM_UP_STEP_NM, back)) {
    const { position, course } = positionAt(geo, place.distance - place.direction * back);
    const heading = place.direction === 1 ? course : (course + 180) % 360;
    state = chooseSatellite(state, position, { t: now - (back / cruiseKn) * 3_600_000, heading, vesselIndex });
    if (back <= 0) return state.tracking;
  }
}
