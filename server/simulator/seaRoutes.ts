import { distanceNm } from '../../src/domain/greatCircle';

/**
 * Sea routes between real ports, drawn by hand as [lat, lon] waypoints so that the straight
 * (linear in lat/lon) legs between them stay at sea: through the Taiwan Strait, the Singapore and
 * Malacca Straits, the Dover Strait and the Kaiwi Channel. tests/unit/simulator.test.ts checks
 * every leg against land boxes.
 */
export type LatLon = readonly [lat: number, lon: number];

export interface SeaRoute {
  name: string;
  from: string;
  to: string;
  waypoints: readonly LatLon[];
}

export const SEA_ROUTES: readonly SeaRoute[] = [
  {
    name: 'Shanghai - Singapore',
    from: 'Shanghai',
    to: 'Singapore',
    waypoints: [
      [31.0, 122.7],
      [29.5, 123.0],
      [27.0, 121.8],
      [25.3, 120.4],
      [23.8, 119.0],
      [22.3, 117.0],
      [20.5, 114.5],
      [18.0, 111.5],
      [15.0, 110.5],
      [11.0, 109.6],
      [8.0, 107.2],
      [4.0, 105.0],
      [1.6, 104.6],
      [1.32, 104.45],
      [1.27, 104.25],
      [1.25, 103.95],
    ],
  },
  {
    name: 'Singapore - Colombo',
    from: 'Singapore',
    to: 'Colombo',
    waypoints: [
      [1.25, 103.95],
      [1.16, 103.7],
      [1.22, 103.35],
      [1.6, 102.8],
      [2.35, 101.75],
      [2.9, 101.0],
      [4.1, 99.9],
      [5.6, 98.1],
      [6.3, 95.0],
      [5.6, 80.6],
      [6.5, 79.65],
      [6.96, 79.8],
    ],
  },
  {
    name: 'Rotterdam - New York',
    from: 'Rotterdam',
    to: 'New York',
    waypoints: [
      [52.0, 3.9],
      [51.6, 2.7],
      [51.0, 1.5],
      [50.5, 0.2],
      [50.3, -1.2],
      [49.85, -4.0],
      [49.6, -6.5],
      [46.0, -30.0],
      [41.0, -55.0],
      [40.2, -69.0],
      [40.4, -73.5],
      [40.45, -73.85],
    ],
  },
  {
    name: 'Los Angeles - Honolulu',
    from: 'Los Angeles',
    to: 'Honolulu',
    waypoints: [
      [33.68, -118.2],
      [33.5, -118.1],
      [32.9, -118.0],
      [31.5, -121.0],
      [22.5, -154.0],
      [21.55, -157.0],
      [21.15, -157.5],
      [21.22, -157.8],
      [21.27, -157.88],
    ],
  },
  {
    name: 'Santos - Cape Town',
    from: 'Santos',
    to: 'Cape Town',
    waypoints: [
      [-24.1, -46.3],
      [-25.0, -44.0],
      [-34.3, 17.6],
      [-33.75, 18.2],
      [-33.88, 18.42],
    ],
  },
];

const rad = (deg: number) => (deg * Math.PI) / 180;

/** The course from a to b along the straight (lat/lon) leg, degrees true 0..360. */
export function courseDeg(a: LatLon, b: LatLon): number {
  const dy = b[0] - a[0];
  const dx = (b[1] - a[1]) * Math.cos(rad((a[0] + b[0]) / 2));
  return ((Math.atan2(dx, dy) * 180) / Math.PI + 360) % 360;
}

export interface RouteGeometry {
  route: SeaRoute;
  /** Cumulative distance (nm) at each waypoint. */
  cumulative: number[];
  lengthNm: number;
}

export function routeGeometry(route: SeaRoute): RouteGeometry {
  const cumulative = [0];
  for (let i = 1; i < route.waypoints.length; i++)
    cumulative.push(cumulative[i - 1]! + distanceNm(route.waypoints[i - 1]!, route.waypoints[i]!));
  return { route, cumulative, lengthNm: cumulative[cumulative.length - 1]! };
}

/** The position and course at a distance along the route (sailing from its first waypoint). */
export function positionAt(geo: RouteGeometry, distance: number): { position: LatLon; course: number } {
  const d = Math.max(0, Math.min(geo.lengthNm, distance));
  const w = geo.route.waypoints;
  let i = 1;
  while (i < w.length - 1 && geo.cumulative[i]! < d) i++;
  const [a, b] = [w[i - 1]!, w[i]!];
  const legLength = geo.cumulative[i]! - geo.cumulative[i - 1]!;
  const f = legLength > 0 ? (d - geo.cumulative[i - 1]!) / legLength : 0;
  return { position: [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f], course: courseDeg(a, b) };
}

/**
 * The place on the route nearest to a position, and which way a vessel on it sails (the way its
 * heading points along the route there): where the live simulator carries on from a vessel's
 * latest stored report.
 */
export function placeOnRoute(geo: RouteGeometry, position: LatLon, heading: number): { distance: number; direction: 1 | -1 } {
  const w = geo.route.waypoints;
  const scale = Math.cos(rad(position[0]));
  let best = { gap: Infinity, distance: 0, course: 0 };
  for (let i = 1; i < w.length; i++) {
    const [a, b] = [w[i - 1]!, w[i]!];
    const [dx, dy] = [(b[1] - a[1]) * scale, b[0] - a[0]];
    const [px, py] = [(position[1] - a[1]) * scale, position[0] - a[0]];
    const f = dx || dy ? Math.max(0, Math.min(1, (px * dx + py * dy) / (dx * dx + dy * dy))) : 0;
    const gap = Math.hypot(px - f * dx, py - f * dy);
    if (gap < best.gap) {
      const legLength = geo.cumulative[i]! - geo.cumulative[i - 1]!;
      best = { gap, distance: geo.cumulative[i - 1]! + f * legLength, course: courseDeg(a, b) };
    }
  }
  const along = Math.cos(rad(heading - best.course));
  return { distance: best.distance, direction: along >= 0 ? 1 : -1 };
}
