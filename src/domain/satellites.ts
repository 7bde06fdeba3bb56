import { wrapLongitude } from './greatCircle';
/**
 * The geostationary satellites the product knows (name, orbital longitude in degrees east): the
 * ones the simulated terminals track and the choices of a re-point command. Server, simulator and
 * console read this one list.
 */
export const SATELLITES: readonly { name: string; longitude: number }[] = [
  { name: 'AsiaSat 7', longitude: 105.5 },
  { name: 'APSTAR 6D', longitude: 134.5 },
  { name: 'Horizons 3e', longitude: 169.0 },
  { name: 'Intelsat 39', longitude: 62.0 },
  { name: 'Eutelsat 10B', longitude: 10.0 },
  { name: 'Intelsat 35e', longitude: -34.5 },
  { name: 'Telstar 19V', longitude: -63.0 },
  { name: 'Intelsat 21', longitude: -58.0 },
  { name: 'Eutelsat 117 West B', longitude: -116.8 },
  { name: 'Intelsat 18', longitude: -180.0 },
];

export const SATELLITE_NAMES: readonly string[] = SATELLITES.map((s) => s.name);

export const satelliteNamed = (name: string) => SATELLITES.find((s) => s.name === name);

const rad = (d: number) => (d * Math.PI) / 180;
const deg = (r: number) => (r * 180) / Math.PI;

/** Azimuth (0..360 true), elevation and polarisation skew (degrees) towards a geostationary satellite. */
export function lookAngles([lat, lon]: readonly [number, number], satLon: number) {
  const g = rad(wrapLongitude(satLon - lon));
  const l = rad(lat);
  const cosBeta = Math.cos(g) * Math.cos(l);
  const elevation = deg(Math.atan2(cosBeta - 0.1512, Math.sqrt(Math.max(1e-9, 1 - cosBeta * cosBeta))));
  const azimuth = (deg(Math.atan2(Math.sin(g), -Math.sin(l) * Math.cos(g))) + 360) % 360;
  const skew = deg(Math.atan2(Math.sin(g), Math.tan(l === 0 ? 1e-9 : l)));
  const skewFolded = skew > 90 ? skew - 180 : skew < -90 ? skew + 180 : skew;
  return { azimuth, elevation: Math.max(-90, Math.min(90, elevation)), skew: skewFolded };
}
