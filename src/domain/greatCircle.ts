/**
 * Distances and bearings on the earth's great circles (a sphere of 6,371 km): the one place the
 * product measures between two positions (geofences, tracks, the projected paths of "degradation
 * ahead", the simulator's routes).
 */
export type Point = readonly [lat: number, lon: number];

/** The earth's mean radius, in metres and in nautical miles. */
export const EARTH_M = 6_371_000;
export const EARTH_NM = 3_440.065;

/** A longitude (or any angle) in degrees brought into -180..180. */
export const wrapLongitude = (d: number) => ((((d + 180) % 360) + 360) % 360) - 180;

const rad = (d: number) => (d * Math.PI) / 180;
const deg = (r: number) => (r * 180) / Math.PI;

/** The angle (radians) between two points seen from the earth's centre (haversine). */
function centralAngle([lat1, lon1]: Point, [lat2, lon2]: Point): number {
  const h = Math.sin(rad(lat2 - lat1) / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lon2 - lon1) / 2) ** 2;
  return 2 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Great-circle distance in nautical miles. */
export const distanceNm = (a: Point, b: Point) => EARTH_NM * centralAngle(a, b);
/** Great-circle distance in metres. */
export const distanceM = (a: Point, b: Point) => EARTH_M * centralAngle(a, b);

/** The initial great-circle bearing (degrees, 0-360) from one point to another. */
export function bearingTo([lat1, lon1]: Point, [lat2, lon2]: Point): number {
  const φ1 = rad(lat1);
  const φ2 = rad(lat2);
  const Δλ = rad(lon2 - lon1);
  const y = Math.sin(Δλ) * Math.cos(φ2);
  const x = Math.cos(φ1) * Math.sin(φ2) - Math.sin(φ1) * Math.cos(φ2) * Math.cos(Δλ);
  return (deg(Math.atan2(y, x)) + 360) % 360;
}
