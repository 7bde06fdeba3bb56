import type { LatLon } from './seaRoutes';
import { SATELLITES } from '../../src/domain/satellites';

/** The satellites the product knows (src/domain/satellites.ts): the simulator tracks these. */
export { SATELLITES };

const rad = (d: number) => (d * Math.PI) / 180;
const deg = (r: number) => (r * 180) / Math.PI;
const wrap180 = (d: number) => ((((d + 180) % 360) + 360) % 360) - 180;

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

/** Azimuth (0..360 true), elevation and polarisation skew (degrees) towards a geostationary satellite. */
export function lookAngles([lat, lon]: LatLon, satLon: number) {
  const g = rad(wrap180(satLon - lon));
  const l = rad(lat);
  const cosBeta = Math.cos(g) * Math.cos(l);
  const elevation = deg(Math.atan2(cosBeta - 0.1512, Math.sqrt(Math.max(1e-9, 1 - cosBeta * cosBeta))));
  const azimuth = (deg(Math.atan2(Math.sin(g), -Math.sin(l) * Math.cos(g))) + 360) % 360;
  const skew = deg(Math.atan2(Math.sin(g), Math.tan(l === 0 ? 1e-9 : l)));
  const skewFolded = skew > 90 ? skew - 180 : skew < -90 ? skew + 180 : skew;
  return { azimuth, elevation: Math.max(-90, Math.min(90, elevation)), skew: skewFolded };
}
