import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { getConfig } from '../config';

/** The sea and land colours of the base map that ships with the app. */
export const SEA_COLOUR = '#cfe3f3';
// Fill only: Leaflet clips a polygon to the drawn area, and a stroke would also trace the clip's edge
// (the stray horizontal line that stopped mid-map, at the edge of the world's one copy of Antarctica).
export const LAND_STYLE: L.PathOptions = { stroke: false, fillColor: '#e8ecdd', fillOpacity: 1 };

/**
 * Natural Earth land (world-atlas) at two scales, each its own chunk loaded once: 1:110m (about
 * 20 KB on the wire) for the fleet view, 1:50m (about 155 KB) only when the map is zoomed in past
 * DETAIL_ZOOM, where the coarse coastline would look blocky.
 */
export type LandDetail = 'coarse' | 'detailed';
export const DETAIL_ZOOM = 4;
const LAND_CHUNKS: Record<LandDetail, () => Promise<unknown>> = {
  coarse: () => import('world-atlas/land-110m.json'),
  detailed: () => import('world-atlas/land-50m.json'),
};
const landPromises: Partial<Record<LandDetail, Promise<GeoJSON.GeoJsonObject>>> = {};

export const landDetailFor = (zoom: number): LandDetail => (zoom > DETAIL_ZOOM ? 'detailed' : 'coarse');

export function loadLand(detail: LandDetail): Promise<GeoJSON.GeoJsonObject> {
  landPromises[detail] ??= LAND_CHUNKS[detail]().then((module) => {
    const topology = ((module as { default?: unknown }).default ?? module) as Topology<{ land: GeometryCollection }>;
    return feature(topology, topology.objects.land) as GeoJSON.GeoJsonObject;
  });
  return landPromises[detail];
}

export interface BaseMapOptions {
  center?: L.LatLngExpression;
  zoom?: number;
  /** The zoom buttons' titles (and accessible names), in the user's language. */
  zoomTitles?: { zoomIn: string; zoomOut: string };
  /** The title of the attribution's Leaflet link, in the user's language. */
  leafletTitle?: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The attribution's prefix: a link to Leaflet whose title is in the user's language (Leaflet's
 * own prefix carries an English title). Leaflet sets it as HTML, hence the escaping.
 */
export function leafletPrefix(title: string): string {
  return `<a href="https://leafletjs.com" target="_blank" rel="noopener noreferrer" title="${escapeHtml(title)}">Leaflet</a>`;
}

/**
 * A Leaflet map on `element` with the offline base map (land on a sea-coloured background, drawn
 * on canvas), plus the online tile layer when the configuration names one. Callers add their
 * layers to the returned map and call map.remove() when done.
 */
export function createBaseMap(element: HTMLElement, options: BaseMapOptions = {}): L.Map {
  const map = L.map(element, {
    center: options.center ?? [20, 110],
    zoom: options.zoom ?? 3,
    minZoom: 2,
    maxZoom: 14,
    // Quarter steps, so a fit (src/map/fitView.ts) frames a fleet or a track closely.
    zoomSnap: 0.25,
    zoomDelta: 1,
    worldCopyJump: true,
    preferCanvas: true,
    attributionControl: true,
    zoomControl: false,
  });
  L.control.zoom({ zoomInTitle: options.zoomTitles?.zoomIn, zoomOutTitle: options.zoomTitles?.zoomOut }).addTo(map);
  if (options.leafletTitle !== undefined) map.attributionControl.setPrefix(leafletPrefix(options.leafletTitle));
  element.style.background = SEA_COLOUR;
  const tileUrl = getConfig().mapTileUrl;
  if (tileUrl) {
    L.tileLayer(tileUrl, { maxZoom: 18, attribution: '' }).addTo(map);
  } else {
    map.attributionControl.addAttribution('Natural Earth');
    const renderer = L.canvas({ padding: 0.5 });
    const land: Partial<Record<LandDetail, L.GeoJSON>> = {};
    const showLand = () => {
      const wanted = landDetailFor(map.getZoom());
      void loadLand(wanted).then((shape) => {
        // The map may have been removed, or zoomed to the other scale, while the chunk loaded.
        if (!(map as unknown as { _loaded?: boolean })._loaded || landDetailFor(map.getZoom()) !== wanted) return;
        // GeoJSON hands its options to the polygons it makes, so they draw on the shared canvas.
        const layer = (land[wanted] ??= L.geoJSON(shape, { style: LAND_STYLE, interactive: false, renderer } as L.GeoJSONOptions));
        for (const other of Object.values(land)) if (other !== layer) other.remove();
        if (!map.hasLayer(layer)) layer.addTo(map).bringToBack();
      });
    };
    showLand();
    map.on('zoomend', showLand);
  }
  return map;
}
