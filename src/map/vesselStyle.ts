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
