import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import L from 'leaflet';
import { VesselLayer, type MapVessel } from '../../src/map/vesselLayer';
import {
  CLUSTER_MIN_VESSELS,
  STATE_COLOURS,
  clusterColour,
  clusterLabel,
  clusterRing,
  groupOverlapping,
  headingRadians,
  showLabels,
  shouldCluster,
  spreadOffsets,
  stateColour,
  wrapNear,
} from '../../src/map/vesselStyle';

describe('vessel style', () => {
  it('colours by state, unknown as offline', () => {
    expect(stateColour(1)).toBe(STATE_COLOURS[1]);
    expect(stateColour(2)).toBe(STATE_COLOURS[2]);
    expect(stateColour(0)).toBe(STATE_COLOURS[0]);
    expect(stateColour(null)).toBe(STATE_COLOURS[0]);
    expect(stateColour(7)).toBe(STATE_COLOURS[0]);
    expect(new Set([0, 1, 2].map(stateColour)).size).toBe(3);
  });

  it('turns to the heading, clockwise from north, any number of turns', () => {
    expect(headingRadians(0)).toBe(0);
    expect(headingRadians(90)).toBeCloseTo(Math.PI / 2);
    expect(headingRadians(450)).toBeCloseTo(Math.PI / 2);
    expect(headingRadians(-90)).toBeCloseTo((3 * Math.PI) / 2);
    expect(headingRadians(null)).toBe(0);
    expect(headingRadians(Number.NaN)).toBe(0);
  });

  it('clusters only when many; a cluster is filled by its main state and ringed in red when any vessel is in alarm', () => {
    expect(shouldCluster(CLUSTER_MIN_VESSELS)).toBe(false);
    expect(shouldCluster(CLUSTER_MIN_VESSELS + 1)).toBe(true);
    expect(clusterColour({ online: 10, offline: 5, warn: 1 })).toBe(STATE_COLOURS[1]);
    expect(clusterRing({ online: 10, offline: 5, warn: 1 })).toBe(STATE_COLOURS[2]);
    expect(clusterColour({ online: 1, offline: 50, warn: 0 })).toBe(STATE_COLOURS[0]);
    expect(clusterRing({ online: 1, offline: 50, warn: 0 })).not.toBe(STATE_COLOURS[2]);
    expect(clusterColour({ online: 2, offline: 1, warn: 4 })).toBe(STATE_COLOURS[2]);
    expect([clusterLabel(999), clusterLabel(1234), clusterLabel(12_345)]).toEqual(['999', '1.2k', '12k']);
  });

  it('moves a longitude by whole turns next to the view centre', () => {
    expect(wrapNear(-170, 170)).toBe(190);
    expect(wrapNear(170, -170)).toBe(-190);
    expect(wrapNear(10, 20)).toBe(10);
  });
});

/** A 2D context that records what was drawn (jsdom has no canvas). */
function recordingContext() {
  const calls: { op: string; args: unknown[]; fillStyle?: string }[] = [];
  const ctx: Record<string, unknown> = { fillStyle: '', strokeStyle: '', lineWidth: 1, font: '', textAlign: '', textBaseline: '' };
  for (const op of [
    'setTransform',
    'clearRect',
    'save',
    'restore',
    'translate',
    'rotate',
    'beginPath',
    'moveTo',
    'lineTo',
    'closePath',
    'fill',
    'stroke',
    'arc',
    'fillText',
    'strokeText',
  ]) {
    ctx[op] = (...args: unknown[]) => calls.push({ op, args, fillStyle: ctx.fillStyle as string });
  }
  ctx.measureText = (text: string) => ({ width: text.length * 7 });
  return { ctx, calls };
}

describe('the vessel layer on a Leaflet map', () => {
  let element: HTMLDivElement;
  let map: L.Map;
  let calls: ReturnType<typeof recordingContext>['calls'];
  beforeEach(() => {
    const recorder = recordingContext();
    calls = recorder.calls;
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(() => recorder.ctx as unknown as CanvasRenderingContext2D);
    element = document.createElement('div');
    Object.defineProperty(element, 'clientWidth', { value: 800 });
    Object.defineProperty(element, 'clientHeight', { value: 600 });
    document.body.appendChild(element);
    map = L.map(element, { center: [0, 0], zoom: 2, zoomAnimation: false, fadeAnimation: false });
  });
  afterEach(() => {
    map.remove();
    element.remove();
    vi.restoreAllMocks();
  });

  const fleet = (n: number): MapVessel[] =>
    Array.from({ length: n }, (_, i) => ({
      id: i + 1,
      name: `V${i}`,
      lat: -40 + (i % 80),
      lon: -150 + ((i * 7) % 300),
      heading: (i * 37) % 360,
      status: i % 3,
    }));

  it('draws a few vessels one by one, turned to their heading and coloured by state', () => {
    const vessels: MapVessel[] = [
      { id: 1, name: 'A', lat: 10, lon: 20, heading: 90, status: 1 },
      { id: 2, name: 'B', lat: -10, lon: -20, heading: 180, status: 2 },
      { id: 3, name: 'C', lat: 20, lon: 40, heading: null, status: 0 },
      { id: 4, name: 'no position', lat: Number.NaN, lon: 0, heading: 0, status: 1 },
    ];
    const layer = new VesselLayer().addTo(map);
    layer.setVessels(vessels);
    expect(layer.stats).toMatchObject({ vessels: 3, points: 3, clusters: 0 });
    const rotations = calls.filter((c) => c.op === 'rotate').map((c) => c.args[0] as number);
    expect(rotations[0]).toBeCloseTo(Math.PI / 2);
    expect(rotations[1]).toBeCloseTo(Math.PI);
    expect(rotations[2]).toBe(0);
    const fills = calls.filter((c) => c.op === 'fill').map((c) => c.fillStyle);
    expect(fills).toEqual([STATE_COLOURS[1], STATE_COLOURS[2], STATE_COLOURS[0]]);
    expect(calls.some((c) => c.op === 'arc')).toBe(false);
  });

  it('clusters a large fleet: every vessel is drawn alone or inside a cluster, and zooming in splits them', () => {
    const layer = new VesselLayer({ padding: 0 }).addTo(map);
    layer.setVessels(fleet(3000));
    const far = layer.stats;
    expect(far.clusters).toBeGreaterThan(0);
    expect(far.clusters + far.points).toBeLessThan(3000 / 5);
    map.setView([0, 0], 1, { animate: false });
    map.fitWorld({ animate: false });
    const world = layer.stats;
    expect(world.points + world.vesselsInClusters).toBe(3000);
    map.setView([0, 0], 9, { animate: false });
    expect(layer.stats.clusters).toBe(0);
  });

  it('writes the names, and spreads vessels on one spot apart: each can be clicked, and the spot lists them', () => {
    const listed: number[][] = [];
    const clicked: number[] = [];
    const layer = new VesselLayer({
      onVesselClick: (v) => clicked.push(v.id),
      onGroupClick: (vs) => listed.push(vs.map((v) => v.id)),
    }).addTo(map);
    const spot = { lat: 31.2, lon: 121.5, heading: 0, status: 1 };
    layer.setVessels([
      { id: 1, name: 'Ocean Star', ...spot },
      { id: 2, name: 'Ocean Pearl', ...spot },
      { id: 3, name: 'Far Away', lat: -30, lon: -40, heading: 0, status: 0 },
    ]);
    expect(layer.stats).toMatchObject({ vessels: 3, points: 3 });
    expect(calls.filter((c) => c.op === 'fillText').map((c) => c.args[0])).toEqual(['Ocean Star', 'Ocean Pearl', 'Far Away']);
    const at = map.latLngToContainerPoint([spot.lat, spot.lon]);
    const apart = [1, 2].map((id) => {
      const hit = [...Array(80).keys()]
        .flatMap((dx) => [...Array(80).keys()].map((dy) => at.add([dx - 40, dy - 40])))
        .find((p) => layer.hitAt(p)?.vessel?.id === id);
      expect(hit, `vessel ${id} can be hit`).toBeDefined();
      return hit!;
    });
    expect(apart[0]!.distanceTo(apart[1]!)).toBeGreaterThan(15);
    const fire = (p: L.Point) =>
      map.fire('click', { latlng: map.containerPointToLatLng(p), containerPoint: p, layerPoint: map.containerPointToLayerPoint(p) });
    fire(apart[1]!);
    fire(at);
    expect(clicked).toEqual([2]);
    expect(listed).toEqual([[1, 2]]);
  });

  it('finds the vessel under a click and reports it', () => {
    const clicked: MapVessel[] = [];
    const layer = new VesselLayer({ onVesselClick: (v) => clicked.push(v) }).addTo(map);
    layer.setVessels([{ id: 9, name: 'Nine', lat: 5, lon: 5, heading: 0, status: 1 }]);
    const at = map.latLngToContainerPoint([5, 5]);
    expect(layer.hitAt(at)?.vessel?.id).toBe(9);
    expect(layer.hitAt(at.add([30, 30]))).toBeUndefined();
    map.fire('click', { latlng: map.containerPointToLatLng(at), containerPoint: at, layerPoint: map.containerPointToLayerPoint(at) });
    expect(clicked.map((v) => v.id)).toEqual([9]);
  });
});

describe('vessels on the same spot, names and the search (the first day with the console)', () => {
  it('groups screen points that overlap and spreads a group so every arrow stands apart', () => {
    const groups = groupOverlapping([
      { x: 100, y: 100 },
      { x: 103, y: 101 },
      { x: 300, y: 40 },
      { x: 100, y: 100 },
    ]);
    expect(groups).toEqual([[0, 1, 3], [2]]);
    for (const n of [2, 3, 8, 9, 30]) {
      const offsets = spreadOffsets(n);
      expect(offsets).toHaveLength(n);
      for (let i = 0; i < n; i += 1)
        for (let j = i + 1; j < n; j += 1)
          expect(Math.hypot(offsets[i]!.dx - offsets[j]!.dx, offsets[i]!.dy - offsets[j]!.dy), `${n}: ${i}-${j}`).toBeGreaterThan(10);
    }
  });

  it('names vessels when zoomed in or when few are on screen', () => {
    expect(showLabels(6, 500)).toBe(true);
    expect(showLabels(3, 40)).toBe(true);
    expect(showLabels(3, 41)).toBe(false);
  });
});

describe('fitting the view (src/map/fitView.ts)', () => {
  it('frames a fleet on both sides of the antimeridian across 180°, not across the world', async () => {
    const { pointsBounds } = await import('../../src/map/fitView');
    const across = pointsBounds([
      [21, -157.8],
      [35, 139.7],
      [-33.9, 151.2],
      [1.3, 103.8],
    ])!;
    expect(across.getWest()).toBeCloseTo(103.8);
    expect(across.getEast()).toBeCloseTo(202.2);
    expect(across.getSouth()).toBeCloseTo(-33.9);
    expect(across.getNorth()).toBeCloseTo(35);
    const atlantic = pointsBounds([
      [40.4, -73.9],
      [51.9, 4],
      [-33.9, 18.4],
    ])!;
    expect(atlantic.getWest()).toBeCloseTo(-73.9);
    expect(atlantic.getEast()).toBeCloseTo(18.4);
    expect(pointsBounds([])).toBeNull();
  });
});
