/**
 * How a vessel and a cluster of vessels look on the fleet map, as plain functions (no Leaflet, no
 * DOM) so they can be tested and shared by the dashboard and the map benchmark.
 */

/** Colours of the connection states (0 offline, 1 online, 2 warn). */
export const STATE_COLOURS: Readonly<Record<number, string>> = { 0: '#8c96a0', 1: '#2e9d4f', 2: '#d93a2b' };

export const stateColour = (status: number | null | undefined): string => STATE_COLOURS[status ?? 0] ?? STATE_COLOURS[0]!;

/** A heading in degrees (0 north, clockwise) as a canvas rotation in radians; none points north. */
export function headingRadians(heading: number | null | undefined): number {
  if (heading === null || heading === undefined || !Number.isFinite(heading)) return 0;
  const degrees = ((heading % 360) + 360) % 360;
  return (degrees * Math.PI) / 180;
}

/** Below this many vessels every vessel is drawn on its own; above it they are clustered. */
export const CLUSTER_MIN_VESSELS = 200;
/** Supercluster's clustering radius in screen pixels, and the zoom from which it stops. */
export const CLUSTER_RADIUS_PX = 44;
export const CLUSTER_MAX_ZOOM = 8;

export const shouldCluster = (vesselCount: number): boolean => vesselCount > CLUSTER_MIN_VESSELS;

export interface StateTally {
  online: number;
  offline: number;
  warn: number;
}

/**
 * A cluster is filled with the colour of the state most of its vessels are in (so a big fleet with
 * a few alarms does not turn all red), and ringed in the warn colour when any vessel inside is in
 * alarm (clusterRing), so alarms stay visible at every zoom.
 */
export function clusterColour(tally: StateTally): string {
  if (tally.warn >= tally.online && tally.warn >= tally.offline) return STATE_COLOURS[2]!;
  return tally.online >= tally.offline ? STATE_COLOURS[1]! : STATE_COLOURS[0]!;
}

/** The ring around a cluster: warn colour when any vessel inside is in alarm, else a light halo. */
export const clusterRing = (tally: StateTally): string => (tally.warn > 0 ? STATE_COLOURS[2]! : 'rgba(255,255,255,0.8)');

/** Cluster circle radius in pixels: grows with the log of the count, 12..26. */
export const clusterRadius = (count: number): number => Math.min(26, 12 + Math.round(Math.log10(Math.max(1, count)) * 4.5));

/** The count as a cluster shows it: 1234 -> "1.2k". */
export const clusterLabel = (count: number): string =>
  count >= 10_000 ? `${Math.round(count / 1000)}k` : count >= 1000 ? `${(count / 1000).toFixed(1)}k` : String(count);

/** The longitude of a point moved by whole turns so that it lies nearest to the view's centre. */
export const wrapNear = (lng: number, centreLng: number): number => lng + 360 * Math.round((centreLng - lng) / 360);

/** Vessels whose arrows lie closer than this on screen are one overlapping group, spread apart. */
export const OVERLAP_PX = 10;
/** Names are written beside the vessels from this zoom, or at any zoom when this few vessels are on screen. */
export const LABEL_MIN_ZOOM = 6;
export const LABEL_MAX_VESSELS = 40;

export const showLabels = (zoom: number, vesselsOnScreen: number): boolean =>
  zoom >= LABEL_MIN_ZOOM || vesselsOnScreen <= LABEL_MAX_VESSELS;

/** Below this zoom only vessels on practically the same spot (SAME_SPOT_DEGREES apart) are spread; from it, any that overlap on screen. */
export const SPREAD_ANY_ZOOM = 8;
export const SAME_SPOT_DEGREES = 0.002;
export const sameSpot = (a: { lat: number; lon: number }, b: { lat: number; lon: number }) =>
  Math.abs(a.lat - b.lat) < SAME_SPOT_DEGREES && Math.abs(a.lon - b.lon) < SAME_SPOT_DEGREES;

/**
 * Screen points grouped with those within `px` of the group's first point and `together` with it
 * (a grid of `px` cells, so a few thousand points cost a few milliseconds). Each group lists the
 * indexes of its points.
 */
export function groupOverlapping<P extends { x: number; y: number }>(
  points: readonly P[],
  px = OVERLAP_PX,
  together: (a: P, b: P) => boolean = () => true,
): number[][] {
  const cells = new Map<string, number[]>();
  const groups: number[][] = [];
  const anchorOf: number[] = [];
  points.forEach((p, i) => {
    const cx = Math.floor(p.x / px);
    const cy = Math.floor(p.y / px);
    let joined = -1;
    for (let dx = -1; dx <= 1 && joined < 0; dx += 1)
      for (let dy = -1; dy <= 1 && joined < 0; dy += 1)
        for (const g of cells.get(`${cx + dx},${cy + dy}`) ?? []) {
          const a = points[anchorOf[g]!]!;
          if (Math.hypot(a.x - p.x, a.y - p.y) < px && together(a, p)) {
            joined = g;
            break;
          }
        }
    if (joined < 0) {
      joined = groups.length;
      groups.push([]);
      anchorOf.push(i);
      const key = `${cx},${cy}`;
      cells.set(key, [...(cells.get(key) ?? []), joined]);
    }
    groups[joined]!.push(i);
  });
  return groups;
}

/**
 * Where the vessels of an overlapping group are drawn, as offsets from its centre: rings of 8, 16,
 * 24... around it (radius 22, 38, 54... px), starting at the top, so each arrow can be seen and
 * clicked; a thin line joins each to the shared position.
 */
export function spreadOffsets(count: number): { dx: number; dy: number }[] {
  const offsets: { dx: number; dy: number }[] = [];
  for (let ring = 0; offsets.length < count; ring += 1) {
    const capacity = 8 * (ring + 1);
    const onRing = Math.min(capacity, count - offsets.length);
    const radius = 22 + 16 * ring;
    for (let i = 0; i < onRing; i += 1) {
      const angle = -Math.PI / 2 + (2 * Math.PI * i) / onRing + ring * 0.3;
      offsets.push({ dx: Math.round(radius * Math.cos(angle) * 10) / 10, dy: Math.round(radius * Math.sin(angle) * 10) / 10 });
    }
  }
  return offsets;
}

/** Whether two label boxes (x, y top-left, w, h) overlap, with a 2 px gap. */
export const boxesOverlap = (a: { x: number; y: number; w: number; h: number }, b: { x: number; y: number; w: number; h: number }) =>
  a.x < b.x + b.w + 2 && b.x < a.x + a.w + 2 && a.y < b.y + b.h + 2 && b.y < a.y + a.h + 2;
