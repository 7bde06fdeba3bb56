import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { getConfig } from '../config';

/** The sea and land colours of the base map that ships with the app. */
export const SEA_COLOUR = '#cfe3f3';
export const LAND_STYLE: L.PathOptions = { color: '#8aa39b', weight: 0.6, fillColor: '#eef1e6', fillOpacity: 1 };

let landPromise: Promise<GeoJSON.GeoJsonObject> | null = null;

/** Natural Earth land at 1:50m (world-atlas), loaded once as its own chunk. */
export function loadLand(): Promise<GeoJSON.GeoJsonObject> {
  landPromise ??= import('world-atlas/land-50m.json').then((module) => {
    const topology = (module.default ?? module) as unknown as Topology<{ land: GeometryCollection }>;
    return feature(topology, topology.objects.land) as GeoJSON.GeoJsonObject;
  });
  return landPromise;
}

export interface BaseMapOptions {
  center?: L.LatLngExpression;
  zoom?: number;
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
    worldCopyJump: true,
    preferCanvas: true,
    attributionControl: true,
  });
  element.style.background = SEA_COLOUR;
  const tileUrl = getConfig().mapTileUrl;
  if (tileUrl) {
    L.tileLayer(tileUrl, { maxZoom: 18, attribution: '' }).addTo(map);
  } else {
    map.attributionControl.addAttribution('Natural Earth');
    const renderer = L.canvas({ padding: 0.5 });
    void loadLand().then((land) => {
      // The map may have been removed while the land chunk loaded.
      if (!(map as unknown as { _loaded?: boolean })._loaded) return;
      // GeoJSON hands its options to the polygons it makes, so they draw on the shared canvas.
      const layer = L.geoJSON(land, { style: LAND_STYLE, interactive: false, renderer } as L.GeoJSONOptions);
      layer.addTo(map);
      layer.bringToBack();
    });
  }
  return map;
}
