import L from 'leaflet';
import Supercluster from 'supercluster';
import { drawArrow, drawCluster, drawGroupCentre, drawLabels } from './vesselDrawing';
import {
  groupOverlapping,
  sameSpot,
  SPREAD_ANY_ZOOM,
  showLabels,
  spreadOffsets,
  CLUSTER_MAX_ZOOM,
  CLUSTER_RADIUS_PX,
  clusterColour,
  clusterLabel,
  clusterRing,
  clusterRadius,
  headingRadians,
  shouldCluster,
  stateColour,
  wrapNear,
  type StateTally,
} from './vesselStyle';

/** One vessel as the fleet map needs it. */
export interface MapVessel {
  id: number;
  name: string;
  lat: number;
  lon: number;
  heading: number | null;
  status: number;
}

type PointProps = { i: number };
type ClusterProps = StateTally;

/** What one redraw put on the canvas (the dashboard's test hook reads it). */
export interface DrawStats {
  vessels: number;
  points: number;
  clusters: number;
  vesselsInClusters: number;
  /** Vessel names written beside their arrows. */
  labels: number;
  /** Vessels drawn spread around a spot they share with others. */
  spread: number;
  drawMs: number;
}

export interface VesselLayerOptions {
  /** A click on a single vessel; clusters zoom in by themselves. */
  onVesselClick?: (vessel: MapVessel) => void;
  /** A click on the shared position of vessels on the same spot (drawn spread around it): they are listed. */
  onGroupClick?: (vessels: MapVessel[]) => void;
  /** Extra screen area drawn around the view, as a share of its size, so a pan shows no blank edge. */
  padding?: number;
}

interface Hit {
  x: number;
  y: number;
  r: number;
  vessel?: MapVessel;
  group?: MapVessel[];
  clusterId?: number;
  lat: number;
  lng: number;
}

const VESSEL_PANE = 'fleetVessels';

/**
 * Every vessel on ONE canvas (not a DOM marker each): a small arrow turned to its heading and
 * filled with its state's colour; with many vessels, Supercluster groups those close on screen
 * into circles coloured by the most urgent state inside. The canvas sits in a map pane, so a pan
 * moves it for free (a CSS transform) and it is redrawn once when the pan ends; it is drawn with
 * padding around the view so the pan shows no blank edge.
 */
export class VesselLayer extends L.Layer {
  private vessels: MapVessel[] = [];
  private index: Supercluster<PointProps, ClusterProps> | null = null;
  private canvas: HTMLCanvasElement | null = null;
  private hits: Hit[] = [];
  private layerMap: L.Map | null = null;
  private readonly padding: number;
  private readonly onVesselClick?: (vessel: MapVessel) => void;
  private readonly onGroupClick?: (vessels: MapVessel[]) => void;
  /** How long the last setVessels took to build the cluster index. */
  indexMs = 0;
  stats: DrawStats = { vessels: 0, points: 0, clusters: 0, vesselsInClusters: 0, labels: 0, spread: 0, drawMs: 0 };

  constructor(options: VesselLayerOptions = {}) {
    super();
    this.padding = options.padding ?? 0.25;
    this.onVesselClick = options.onVesselClick;
    this.onGroupClick = options.onGroupClick;
  }

  /** Replaces the vessels (those without a position are left out) and redraws. */
  setVessels(vessels: readonly MapVessel[]): this {
    this.vessels = vessels.filter((v) => Number.isFinite(v.lat) && Number.isFinite(v.lon));
    this.index = null;
    const started = performance.now();
    if (shouldCluster(this.vessels.length)) {
      this.index = new Supercluster<PointProps, ClusterProps>({
        radius: CLUSTER_RADIUS_PX,
        extent: 256,
        minZoom: 2,
        maxZoom: CLUSTER_MAX_ZOOM,
        minPoints: 3,
        map: (p) => {
          const s = this.vessels[p.i]!.status;
          return { online: s === 1 ? 1 : 0, offline: s === 0 ? 1 : 0, warn: s === 2 ? 1 : 0 };
        },
        reduce: (acc, p) => {
          acc.online += p.online;
          acc.offline += p.offline;
          acc.warn += p.warn;
        },
      });
      this.index.load(
        this.vessels.map((v, i) => ({ type: 'Feature', properties: { i }, geometry: { type: 'Point', coordinates: [v.lon, v.lat] } })),
      );
    }
    this.indexMs = performance.now() - started;
    this.redraw();
    return this;
  }

  onAdd(map: L.Map): this {
    this.layerMap = map;
    // leaflet-zoom-hide: hidden while a zoom animates; redrawn when it ends.
    this.canvas = L.DomUtil.create('canvas', 'leaflet-zoom-hide fleet-vessel-layer');
    this.canvas.style.position = 'absolute';
    this.canvas.style.pointerEvents = 'none';
    // Its own pane above the base map's land canvas (overlayPane, z 400), below markers and popups.
    const pane = map.getPane(VESSEL_PANE) ?? map.createPane(VESSEL_PANE);
    pane.style.zIndex = '450';
    pane.appendChild(this.canvas);
    map.on('moveend resize viewreset', this.redraw, this);
    map.on('click', this.handleClick, this);
    map.on('mousemove', this.handleHover, this);
    this.redraw();
    return this;
  }

  onRemove(map: L.Map): this {
    map.off('moveend resize viewreset', this.redraw, this);
    map.off('click', this.handleClick, this);
    map.off('mousemove', this.handleHover, this);
    this.canvas?.remove();
    this.canvas = null;
    this.layerMap = null;
    return this;
  }

  /** Draws what the padded view holds now. Synchronous, so its cost is what a pan's end costs. */
  redraw(): void {
    const map = this.layerMap;
    const canvas = this.canvas;
    if (!map || !canvas) return;
    const started = performance.now();
    const size = map.getSize();
    const pad = size.multiplyBy(this.padding).round();
    const topLeft = map.containerPointToLayerPoint(pad.multiplyBy(-1));
    const width = size.x + 2 * pad.x;
    const height = size.y + 2 * pad.y;
    const ratio = window.devicePixelRatio || 1;
    L.DomUtil.setPosition(canvas, topLeft);
    if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
      canvas.style.width = `${width}px`;
      canvas.style.height = `${height}px`;
    }
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, width, height);
    // Screen point of a lat/lng on this canvas (its origin is the padded top-left corner).
    const centreLng = map.getCenter().lng;
    const origin = map.containerPointToLayerPoint([0, 0]).subtract(topLeft);
    const toCanvas = (lat: number, lng: number) => map.latLngToContainerPoint([lat, wrapNear(lng, centreLng)]).add(origin);
    const nw = map.containerPointToLatLng(pad.multiplyBy(-1));
    const se = map.containerPointToLatLng(size.add(pad));
    const hits: Hit[] = [];
    let points = 0;
    let clusters = 0;
    let vesselsInClusters = 0;
    let spread = 0;

    // Single vessels are collected first: those on the same spot are drawn spread around it.
    const singles: { v: MapVessel; x: number; y: number }[] = [];
    const drawVessel = (v: MapVessel) => {
      const p = toCanvas(v.lat, v.lon);
      if (p.x < -10 || p.y < -10 || p.x > width + 10 || p.y > height + 10) return;
      singles.push({ v, x: p.x, y: p.y });
    };

    if (this.index) {
      const lngSpan = se.lng - nw.lng;
      const west = lngSpan >= 360 ? -180 : nw.lng;
      const east = lngSpan >= 360 ? 180 : se.lng;
      const features = this.index.getClusters([west, Math.max(-85, se.lat), east, Math.min(85, nw.lat)], Math.round(map.getZoom()));
      ctx.font = '600 11px system-ui, sans-serif';
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      for (const f of features) {
        const [lng, lat] = f.geometry.coordinates as [number, number];
        const props = f.properties as Partial<Supercluster.ClusterProperties> & Partial<ClusterProps> & Partial<PointProps>;
        if (props.cluster) {
          const count = props.point_count ?? 0;
          const p = toCanvas(lat, lng);
          const r = clusterRadius(count);
          drawCluster(ctx, p.x, p.y, r, clusterColour(props as StateTally), clusterRing(props as StateTally), clusterLabel(count));
          hits.push({ x: p.x - origin.x, y: p.y - origin.y, r, clusterId: props.cluster_id, lat, lng });
          clusters += 1;
          vesselsInClusters += count;
        } else {
          drawVessel(this.vessels[props.i!]!);
        }
      }
    } else {
      for (const v of this.vessels) drawVessel(v);
    }
    const labels: { x: number; y: number; name: string; left?: boolean }[] = [];
    const arrow = (v: MapVessel, x: number, y: number, left = false) => {
      drawArrow(ctx, x, y, headingRadians(v.heading), stateColour(v.status));
      hits.push({ x: x - origin.x, y: y - origin.y, r: 9, vessel: v, lat: v.lat, lng: v.lon });
      labels.push({ x, y, name: v.name, left });
      points += 1;
    };
    // Zoomed out, vessels merely near each other stay where they are; those on one spot are spread.
    const together =
      map.getZoom() >= SPREAD_ANY_ZOOM ? undefined : (a: (typeof singles)[number], b: (typeof singles)[number]) => sameSpot(a.v, b.v);
    for (const group of groupOverlapping(singles, undefined, together)) {
      if (group.length === 1) {
        const { v, x, y } = singles[group[0]!]!;
        arrow(v, x, y);
        continue;
      }
      const members = group.map((i) => singles[i]!);
      const cx = members.reduce((n, m) => n + m.x, 0) / members.length;
      const cy = members.reduce((n, m) => n + m.y, 0) / members.length;
      const offsets = spreadOffsets(members.length);
      ctx.lineWidth = 1;
      ctx.strokeStyle = 'rgba(29,39,51,0.55)';
      ctx.beginPath();
      for (const o of offsets) {
        ctx.moveTo(cx, cy);
        ctx.lineTo(cx + o.dx, cy + o.dy);
      }
      ctx.stroke();
      // Names of the arrows left of the spot are written on their left, away from the others.
      spread += members.length;
      members.forEach((m, i) => arrow(m.v, cx + offsets[i]!.dx, cy + offsets[i]!.dy, offsets[i]!.dx < -1));
      drawGroupCentre(ctx, cx, cy);
      const first = members[0]!.v;
      hits.push({ x: cx - origin.x, y: cy - origin.y, r: 7, group: members.map((m) => m.v), lat: first.lat, lng: first.lon });
    }
    const written = showLabels(map.getZoom(), points) ? drawLabels(ctx, labels) : 0;
    this.hits = hits;
    const drawMs = performance.now() - started;
    this.stats = { vessels: this.vessels.length, points, clusters, vesselsInClusters, labels: written, spread, drawMs };
  }

  /** The vessel or cluster under a container point, the nearest within its radius. */
  hitAt(point: L.Point): Hit | undefined {
    let best: Hit | undefined;
    let bestDistance = Infinity;
    for (const h of this.hits) {
      const d = Math.hypot(h.x - point.x, h.y - point.y);
      if (d <= h.r && d < bestDistance) {
        best = h;
        bestDistance = d;
      }
    }
    return best;
  }

  private handleClick(event: L.LeafletMouseEvent): void {
    const hit = this.hitAt(event.containerPoint);
    if (!hit || !this.layerMap) return;
    if (hit.vessel) this.onVesselClick?.(hit.vessel);
    else if (hit.group) this.onGroupClick?.(hit.group);
    else if (hit.clusterId !== undefined && this.index) {
      const zoom = Math.min(this.index.getClusterExpansionZoom(hit.clusterId), this.layerMap.getMaxZoom());
      this.layerMap.setView([hit.lat, wrapNear(hit.lng, this.layerMap.getCenter().lng)], zoom);
    }
  }

  private handleHover(event: L.LeafletMouseEvent): void {
    if (!this.layerMap) return;
    this.layerMap.getContainer().style.cursor = this.hitAt(event.containerPoint) ? 'pointer' : '';
  }
}
