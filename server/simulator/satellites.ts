import type { LatLon } from './seaRoutes';
import { lookAngles, SATELLITES } from '../../src/domain/satellites';

/** The satellites the product knows (src/domain/satellites.ts): the simulator tracks these. */
export { lookAngles, SATELLITES };

/** The satellite with the highest elevation from a position. */
export function bestSatellite(position: LatLon) {
  const first = SATELLITES[0]!;
  let best = { ...first, ...lookAngles(position, first.longitude) };
  for (const sat of SATELLITES) {
    const look = lookAngles(position, sat.longitude);
    if (look.elevation > best.elevation) best = { ...sat, ...look };
  }
  return best;
}
