import { useEffect, useRef, type CSSProperties } from 'react';
import type L from 'leaflet';
import { useTranslate } from 'ra-core';
import { createBaseMap, leafletPrefix, type BaseMapOptions } from './baseMap';

export interface BaseMapProps extends BaseMapOptions {
  style?: CSSProperties;
  className?: string;
  /** Called once with the map after it is created; return a clean-up for the layers added. */
  onReady: (map: L.Map) => void | (() => void);
  'data-testid'?: string;
}

/** The offline base map as a React element; pages add their own layers in onReady. */
export function BaseMap({ style, className, onReady, center, zoom, 'data-testid': testId }: BaseMapProps) {
  const translate = useTranslate();
  const element = useRef<HTMLDivElement>(null);
  const mapRef = useRef<L.Map | null>(null);
  const ready = useRef(onReady);
  ready.current = onReady;
  useEffect(() => {
    if (!element.current) return undefined;
    const map = createBaseMap(element.current, {
      center,
      zoom,
      zoomTitles: { zoomIn: translate('map.zoomIn'), zoomOut: translate('map.zoomOut') },
      leafletTitle: translate('map.leaflet'),
    });
    mapRef.current = map;
    const cleanup = ready.current(map);
    // Leaflet measures its container once; a layout that settles later needs a new measure.
    const observer = new ResizeObserver(() => map.invalidateSize());
    observer.observe(element.current);
    return () => {
      observer.disconnect();
      if (typeof cleanup === 'function') cleanup();
      map.remove();
      mapRef.current = null;
    };
    // The map is created once; later centre/zoom changes are the page's business.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  // Another language: the zoom buttons' titles and the attribution's Leaflet link follow.
  useEffect(() => {
    mapRef.current?.attributionControl.setPrefix(leafletPrefix(translate('map.leaflet')));
    for (const [selector, key] of [
      ['.leaflet-control-zoom-in', 'map.zoomIn'],
      ['.leaflet-control-zoom-out', 'map.zoomOut'],
    ] as const) {
      const button = element.current?.querySelector(selector);
      button?.setAttribute('title', translate(key));
      button?.setAttribute('aria-label', translate(key));
    }
  }, [translate]);
  return (
    <div ref={element} className={className} data-testid={testId} style={{ width: '100%', height: '100%', minHeight: 240, ...style }} />
  );
}
