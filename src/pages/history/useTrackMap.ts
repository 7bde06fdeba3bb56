import { useCallback, useEffect, useRef, useState } from 'react';
import L from 'leaflet';
import { useTranslate } from 'ra-core';
import type { TrackResponse } from '../../api/historyApi';
import { decodeTrack, type TrackPoint } from '../../domain/track';
import { fitAndFollow } from '../../map/fitView';
import { drawTrack, vesselMarker, type DrawnTrack } from '../../map/trackLayer';
import { STATE_COLOURS } from '../../map/vesselStyle';
import { positionAt, usePlayback } from './playback';
import { startDrawTiming } from '../../map/drawTiming';
import { DETAIL_FROM_ZOOM, type DetailView, type TrackQuery } from './useTrackQueries';

interface TrackMapInput {
  query: TrackQuery | null;
  /** The overview track and its decoded points (first and last time: start, end). */
  data: TrackResponse | null;
  points: TrackPoint[];
  start: number;
  end: number;
  /** The view whose detail is asked for (set here as the map moves), and its answer. */
  detailView: DetailView | null;
  setDetailView: (view: DetailView | null) => void;
  detailData: TrackResponse | null;
  /** Playback keeps the vessel in view. */
  follow: boolean;
}

/**
 * The Track page's map: draws the overview (and fits the map to it), asks for the detail of the
 * view when zoomed in and draws it in the overview's place, and moves the vessel with playback.
 */
export function useTrackMap({ query, data, points, start, end, detailView, setDetailView, detailData, follow }: TrackMapInput) {
  const t = useTranslate();
  const [detail, setDetail] = useState(false);
  const mapRef = useRef<L.Map | null>(null);
  const renderer = useRef<L.Renderer | null>(null);
  const overview = useRef<DrawnTrack | null>(null);
  const detailLayer = useRef<L.LayerGroup | null>(null);
  const vessel = useRef<ReturnType<typeof vesselMarker> | null>(null);
  const unfollow = useRef<(() => void) | null>(null);
  const followRef = useRef(follow);
  followRef.current = follow;

  const moveVessel = useCallback(
    (time: number, pan = false) => {
      const map = mapRef.current;
      const drawn = overview.current;
      if (!map || !drawn || !points.length || !vessel.current) return;
      const at = positionAt(points, drawn.lons, time);
      const report = points[at.index]!;
      vessel.current.place(at.lat, at.lon, report.heading, STATE_COLOURS[report.state] ?? STATE_COLOURS[1]!);
      if (pan && followRef.current && !map.getBounds().pad(-0.15).contains([at.lat, at.lon]))
        map.panTo([at.lat, at.lon], { animate: false });
    },
    [points],
  );
  const playback = usePlayback(start, end, moveVessel);

  // Draw the overview whenever it changes, and fit the map to it; a detail shown before is dropped.
  useEffect(() => {
    setDetailView(null);
    setDetail(false);
    const map = mapRef.current;
    if (!map || !renderer.current) return;
    overview.current?.layer.remove();
    detailLayer.current?.remove();
    detailLayer.current = null;
    vessel.current?.marker.remove();
    overview.current = null;
    unfollow.current?.();
    unfollow.current = null;
    if (!data || !points.length) return;
    const timing = startDrawTiming('track');
    const drawn = drawTrack(points, new Set(data.cuts), renderer.current, { start: t('track.legend.start'), end: t('track.legend.end') });
    drawn.layer.addTo(map);
    overview.current = drawn;
    vessel.current ??= vesselMarker();
    vessel.current.marker.addTo(map);
    // The layout may have settled since the map measured itself: measure again, then fit.
    map.invalidateSize({ animate: false });
    // The whole track, kept framed while the layout settles or the window changes, until the user moves the map.
    if (drawn.bounds) unfollow.current = fitAndFollow(map, drawn.bounds, { padding: 30, maxZoom: 12 });
    moveVessel(start);
    timing.drawn();
    // The drawing is on canvas; the next frame has it on screen.
    requestAnimationFrame(() => {
      timing.onScreen(points.length);
      map.getContainer().setAttribute('data-track-points', String(points.length));
    });
  }, [data, points, start, moveVessel, t]); // eslint-disable-line react-hooks/exhaustive-deps -- setDetailView is a state setter

  // Zoomed in: the view to ask the detail of; zoomed out: none (back to the overview).
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !query || !data) return undefined;
    let timer = 0;
    const refresh = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => {
        if (map.getZoom() < DETAIL_FROM_ZOOM) {
          setDetailView(null);
          return;
        }
        const b = map.getBounds().pad(0.25);
        setDetailView({
          zoom: map.getZoom(),
          bbox: { west: b.getWest(), south: Math.max(-90, b.getSouth()), east: b.getEast(), north: Math.min(90, b.getNorth()) },
        });
      }, 300);
    };
    map.on('zoomend moveend', refresh);
    return () => {
      map.off('zoomend moveend', refresh);
      window.clearTimeout(timer);
    };
  }, [query, data]); // eslint-disable-line react-hooks/exhaustive-deps -- setDetailView is a state setter

  // Draw the detail of the view in place of the overview once it arrives (the one on screen stays meanwhile); none: the overview again.
  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    if (!detailView) {
      detailLayer.current?.remove();
      detailLayer.current = null;
      if (overview.current && !map.hasLayer(overview.current.layer)) overview.current.layer.addTo(map);
      setDetail(false);
      return;
    }
    if (!detailData || !renderer.current) return;
    const drawn = drawTrack(decodeTrack(detailData.track), new Set(detailData.cuts), renderer.current, {
      start: t('track.legend.start'),
      end: t('track.legend.end'),
    });
    detailLayer.current?.remove();
    overview.current?.layer.remove();
    detailLayer.current = drawn.layer.addTo(map);
    setDetail(true);
  }, [detailView, detailData, t]);

  const onReady = useCallback((map: L.Map) => {
    mapRef.current = map;
    renderer.current = L.canvas({ padding: 0.3 });
    return () => {
      unfollow.current?.();
      unfollow.current = null;
      mapRef.current = null;
    };
  }, []);

  const cursorIndex = points.length ? positionAt(points, overview.current?.lons ?? points.map((p) => p.lon), playback.cursor).index : -1;
  return { onReady, playback, detail, cursorIndex };
}
