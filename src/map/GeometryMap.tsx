import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import L from 'leaflet';
import { BaseMap } from './BaseMap';
import { fitAndFollow } from './fitView';
import { kindColour, shapeBounds, shapeLayer, shapesBounds } from './geofenceShapes';
import type { GeofenceShapeInput } from '../domain/geofences';

export interface MapArea extends GeofenceShapeInput {
  id: string | number;
  name?: string;
  kind?: string;
}

declare global {
  interface Window {
    /** Test hook: how many areas the last read-only geofence map drew. */
    __geometryMap?: { drawn: number };
  }
}

/**
 * Areas drawn on the base map, read-only (the Show page's one area, the list's every area), framed
 * on them; each carries its name as a tooltip and, with onSelect, opens on a click.
 */
export function GeometryMap({
  areas,
  height,
  onSelect,
  'data-testid': testId,
}: {
  areas: readonly MapArea[];
  height: number | string | Record<string, number | string>;
  onSelect?: (area: MapArea) => void;
  'data-testid'?: string;
}) {
  const [map, setMap] = useState<L.Map | null>(null);
  const select = useRef(onSelect);
  select.current = onSelect;
  const onReady = useCallback((m: L.Map) => {
    setMap(m);
    return () => setMap(null);
  }, []);
  useEffect(() => {
    if (!map) return undefined;
    const group = L.featureGroup().addTo(map);
    // An area a few pixels wide at this zoom (a port on the fleet's map) is also shown as a dot.
    const dots: { dot: L.CircleMarker; bounds: L.LatLngBounds }[] = [];
    let drawn = 0;
    for (const area of areas) {
      const layer = shapeLayer(area);
      const bounds = shapeBounds(area);
      if (!layer || !bounds) continue;
      drawn += 1;
      const colour = kindColour(area.kind);
      const dot = L.circleMarker(bounds.getCenter(), { radius: 5, color: '#fff', weight: 1.5, fillColor: colour, fillOpacity: 1 });
      for (const shown of [layer, dot]) {
        if (area.name) shown.bindTooltip(area.name, { sticky: true });
        if (select.current) shown.on('click', () => select.current?.(area));
      }
      layer.addTo(group);
      dots.push({ dot, bounds });
    }
    const showDots = () => {
      for (const { dot, bounds } of dots) {
        const size = map.latLngToLayerPoint(bounds.getNorthEast()).subtract(map.latLngToLayerPoint(bounds.getSouthWest()));
        const small = Math.max(Math.abs(size.x), Math.abs(size.y)) < 12;
        if (small && !group.hasLayer(dot)) dot.addTo(group);
        else if (!small && group.hasLayer(dot)) group.removeLayer(dot);
      }
    };
    window.__geometryMap = { drawn };
    const bounds = shapesBounds(areas);
    const unfollow = bounds ? fitAndFollow(map, bounds, { padding: 24, maxZoom: 13 }) : undefined;
    showDots();
    map.on('zoomend', showDots);
    return () => {
      map.off('zoomend', showDots);
      unfollow?.();
      group.remove();
    };
  }, [map, areas]);
  return (
    <MapFrame height={height} testId={testId}>
      <BaseMap onReady={onReady} style={{ minHeight: 0 }} />
    </MapFrame>
  );
}

/** A bordered box of a responsive height holding a map. */
export function MapFrame({
  height,
  testId,
  children,
}: {
  height: number | string | Record<string, number | string>;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <Box
      data-testid={testId}
      sx={{ height, width: '100%', border: 1, borderColor: 'divider', borderRadius: 1, overflow: 'hidden', position: 'relative' }}
    >
      {children}
    </Box>
  );
}
