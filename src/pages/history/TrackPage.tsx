import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import L from 'leaflet';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import type { TrackRequest, TrackResponse } from '../../api/historyApi';
import { callKey, useCallMutation, useConsoleDataProvider } from '../../data/dataHooks';
import { errorCode } from '../../data/dataProvider';
import { ErrorCode } from '../../domain/errorCodes';
import { decodeTrack, TRACK_WINDOWS, trackQuerySchema, type TrackWindow } from '../../domain/track';
import { validate } from '../../domain/validate';
import { useTranslate } from 'ra-core';
import { PageHeading } from '../../resources/generic/PageHeading';
import { FeatureLockedNotice, useDeviceFeatures } from '../../layout/FeatureGate';
import { BaseMap } from '../../map/BaseMap';
import { fitAndFollow } from '../../map/fitView';
import { drawTrack, vesselMarker, type DrawnTrack } from '../../map/trackLayer';
import { STATE_COLOURS } from '../../map/vesselStyle';
import { useClientState } from '../../state/useClientState';
import { positionAt, usePlayback } from './playback';
import { CursorReport, SummaryPanel } from './TrackPanels';
import { CustomRangeFields, ExportButtons, PlaybackBar, WindowPicker, type CustomRange } from './TrackControls';
import { VesselPicker } from '../vessel/VesselPicker';
import { useVesselId } from '../vessel/useVesselId';
import { localInputToIsoOrUndefined, msToLocalInput } from '../../format/zonedInput';

/** The overview is asked at this zoom; from two levels deeper the view asks for its detail. */
const OVERVIEW_ZOOM = 5;
const DETAIL_FROM_ZOOM = OVERVIEW_ZOOM + 2;
/** Reports kept evenly over the window besides the shape, so playback's cursor report follows the clock. */
const PLAYBACK_SAMPLES = 3000;

/** The part of the map a detail track is asked for (zoomed in from DETAIL_FROM_ZOOM). */
type DetailView = Required<Pick<TrackRequest, 'zoom' | 'bbox'>>;

declare global {
  interface Window {
    /** Timing hooks read by bench/track.ts: when the track was asked for and when it was drawn. */
    __trackTiming?: { requested: number; received?: number; drawStart?: number; drawEnd?: number; drawn?: number; points?: number };
  }
}

/**
 * Location Track (/device/map): a vessel, a window, the track coloured by state with gaps, start
 * and end; playback with speed, slider and follow; the report at the cursor; summary; export. The
 * track arrives simplified for the zoom it is drawn at; zooming in asks for the detail of the view.
 */
export default function TrackPage() {
  const t = useTranslate();
  const timeZone = useClientState((s) => s.timeZone);
  const [params] = useSearchParams();
  const [deviceId, setDeviceId] = useVesselId();
  const [window_, setWindow] = useState<TrackWindow>(() => {
    const asked = params.get('window');
    return (TRACK_WINDOWS as readonly string[]).includes(asked ?? '') ? asked as TrackWindow : '3d';
  });
  const [custom, setCustom] = useState<CustomRange>(() => ({ from: msToLocalInput(Date.now() - 86_400_000, timeZone), to: msToLocalInput(Date.now(), timeZone) }));
  const [customApplied, setCustomApplied] = useState<{ from: string; to: string } | null>(null);
  const [customErrors, setCustomErrors] = useState<Record<string, string>>({});
  const [detailView, setDetailView] = useState<DetailView | null>(null);
  const [detail, setDetail] = useState(false);
  const [follow, setFollow] = useState(true);
  const features = useDeviceFeatures(deviceId);
  const featureLocked = features !== null && !features.trackHistory;
  const dataProvider = useConsoleDataProvider();

  const mapRef = useRef<L.Map | null>(null);
  const renderer = useRef<L.Renderer | null>(null);
  const overview = useRef<DrawnTrack | null>(null);
  const detailLayer = useRef<L.LayerGroup | null>(null);
  const vessel = useRef<ReturnType<typeof vesselMarker> | null>(null);
  const unfollow = useRef<(() => void) | null>(null);
  const followRef = useRef(follow);
  followRef.current = follow;

  const query = useMemo(() => (deviceId ? {
    deviceId, window: window_, from: customApplied?.from, to: customApplied?.to,
  } : null), [deviceId, window_, customApplied]);

  // The overview track of the vessel and window; another vessel or window aborts the one under way.
  // A track is large: it is not kept once the page has moved on (gcTime 0), so coming back asks again.
  const overviewRequest: TrackRequest | null = query && !(query.window === 'custom' && !query.from) && !featureLocked
    ? { ...query, zoom: OVERVIEW_ZOOM, samples: PLAYBACK_SAMPLES } : null;
  const overviewTrack = useQuery<TrackResponse, Error>({
    queryKey: callKey('history', 'track', [overviewRequest]),
    queryFn: async ({ signal }) => {
      window.__trackTiming = { requested: performance.now() };
      const res = await dataProvider.call('history', 'track', overviewRequest!, signal);
      if (window.__trackTiming) window.__trackTiming.received = performance.now();
      return res;
    },
    enabled: overviewRequest !== null,
    gcTime: 0,
  });
  const data = overviewRequest ? overviewTrack.data ?? null : null;
  const locked = (overviewRequest !== null && errorCode(overviewTrack.error) === ErrorCode.Forbidden) || featureLocked;
  const loadState = !overviewRequest ? 'idle' : locked ? 'locked' : overviewTrack.error ? 'error' : overviewTrack.isFetching && !overviewTrack.data ? 'loading' : 'ready';
  const points = useMemo(() => (data ? decodeTrack(data.track) : []), [data]);
  const start = points[0]?.time ?? 0;
  const end = points[points.length - 1]?.time ?? 0;

  // Zoomed in: the full detail of the view; another view aborts the one under way.
  const detailRequest: TrackRequest | null = query && data && detailView ? { ...query, ...detailView } : null;
  const detailTrack = useQuery<TrackResponse, Error>({
    queryKey: callKey('history', 'track', [detailRequest]),
    queryFn: ({ signal }) => dataProvider.call('history', 'track', detailRequest!, signal),
    enabled: detailRequest !== null,
    gcTime: 0,
  });
  const detailData = detailRequest ? detailTrack.data ?? null : null;

  // The export is a download (src/api/transfer.ts) reached through the dataProvider; it changes nothing.
  const exportTrack = useCallMutation('history', 'exportTrack', { calls: [] });

  const moveVessel = useCallback((time: number, pan = false) => {
    const map = mapRef.current;
    const drawn = overview.current;
    if (!map || !drawn || !points.length || !vessel.current) return;
    const at = positionAt(points, drawn.lons, time);
    const report = points[at.index]!;
    vessel.current.place(at.lat, at.lon, report.heading, STATE_COLOURS[report.state] ?? STATE_COLOURS[1]!);
    if (pan && followRef.current && !map.getBounds().pad(-0.15).contains([at.lat, at.lon])) map.panTo([at.lat, at.lon], { animate: false });
  }, [points]);
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
    const timing = window.__trackTiming;
    if (timing) timing.drawStart = performance.now();
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
    if (timing) timing.drawEnd = performance.now();
    // The drawing is on canvas; the next frame has it on screen.
    requestAnimationFrame(() => {
      if (timing) Object.assign(timing, { drawn: performance.now(), points: points.length });
      map.getContainer().setAttribute('data-track-points', String(points.length));
    });
  }, [data, points, start, moveVessel, t]);

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
        setDetailView({ zoom: map.getZoom(), bbox: { west: b.getWest(), south: Math.max(-90, b.getSouth()), east: b.getEast(), north: Math.min(90, b.getNorth()) } });
      }, 300);
    };
    map.on('zoomend moveend', refresh);
    return () => {
      map.off('zoomend moveend', refresh);
      window.clearTimeout(timer);
    };
  }, [query, data]);

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
    const drawn = drawTrack(decodeTrack(detailData.track), new Set(detailData.cuts), renderer.current, { start: t('track.legend.start'), end: t('track.legend.end') });
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

  const applyCustom = () => {
    const from = localInputToIsoOrUndefined(custom.from, timeZone);
    const to = localInputToIsoOrUndefined(custom.to, timeZone);
    const checked = validate(trackQuerySchema, { deviceId: deviceId ?? 0, window: 'custom', from: from ?? custom.from, to: to ?? custom.to });
    if (!checked.ok) return setCustomErrors(Object.fromEntries(checked.errors.map((e) => [e.field, e.message])));
    setCustomErrors({});
    setCustomApplied({ from: from!, to: to! });
  };

  const cursorIndex = points.length ? positionAt(points, overview.current?.lons ?? points.map((p) => p.lon), playback.cursor).index : -1;

  return (
    <>
    {/* The page's one h1, named as its menu entry, breadcrumb and tab; outside the Stack, whose spacing it would shift. */}
    <PageHeading titleKey="menu.map" />
    <Stack spacing={1.5} data-testid="track-page">
      <Paper variant="outlined" sx={{ p: 1.5 }}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} useFlexGap sx={{ alignItems: { md: 'center' }, flexWrap: 'wrap' }}>
          <VesselPicker value={deviceId} onChange={setDeviceId} />
          <WindowPicker value={window_} onChange={(w) => { setWindow(w); if (w !== 'custom') setCustomApplied(null); }} />
          <Box sx={{ flex: 1, display: { xs: 'none', md: 'block' } }} />
          <ExportButtons disabled={!data || locked || exportTrack.isPending} onExport={(f) => query && exportTrack.mutate([query, f])} />
        </Stack>
        {window_ === 'custom' && (
          <Box sx={{ mt: 1.5 }}>
            <CustomRangeFields value={custom} errors={customErrors} onChange={setCustom} onApply={applyCustom} />
          </Box>
        )}
      </Paper>
      {!deviceId && <Alert severity="info">{t('track.pickVessel')}</Alert>}
      {locked && <FeatureLockedNotice />}
      {loadState === 'error' && <Alert severity="error">{t('track.loadFailed')}</Alert>}
      <Box sx={{ display: locked ? 'none' : 'flex', flexDirection: { xs: 'column', md: 'row' }, gap: 1.5 }}>
        <Paper variant="outlined" sx={{ flex: 1, minWidth: 0, position: 'relative', overflow: 'hidden' }}>
          {loadState === 'loading' && <LinearProgress sx={{ position: 'absolute', top: 0, left: 0, right: 0, zIndex: 1000 }} aria-label={t('track.loading')} />}
          <Box sx={{ height: { xs: '52vh', md: 'calc(100vh - 330px)' }, minHeight: 300 }}>
            <BaseMap onReady={onReady} zoom={3} style={{ height: '100%', minHeight: 0 }} data-testid="track-map" />
          </Box>
          <Legend detail={detail} />
          {data && !points.length && (
            <Alert severity="info" sx={{ position: 'absolute', top: 12, left: '50%', transform: 'translateX(-50%)', zIndex: 1000 }} data-testid="track-empty">{t('track.empty')}</Alert>
          )}
        </Paper>
        {data && points.length > 0 && (
          <Stack spacing={1.5} sx={{ width: { xs: '100%', md: 300 }, flexShrink: 0 }}>
            <CursorReport point={points[cursorIndex]} />
            <SummaryPanel summary={data.summary} />
          </Stack>
        )}
      </Box>
      {data && points.length > 0 && !locked && (
        <Paper variant="outlined" sx={{ px: 1.5, py: 0.5 }}>
          <PlaybackBar start={start} end={end} cursor={playback.cursor} playing={playback.playing} speed={playback.speed} follow={follow}
            onPlay={playback.play} onPause={playback.pause} onSeek={playback.seek} onSpeed={playback.setSpeed} onFollow={setFollow} />
        </Paper>
      )}
    </Stack>
    </>
  );
}

function Legend({ detail }: { detail: boolean }) {
  const t = useTranslate();
  const swatch = (colour: string, dashed = false) => (
    <Box component="span" sx={{ display: 'inline-block', width: 18, height: 0, borderTop: `3px ${dashed ? 'dotted' : 'solid'} ${colour}`, mr: 0.5, verticalAlign: 'middle' }} />
  );
  return (
    <Box sx={{ position: 'absolute', left: 8, bottom: 24, zIndex: 1000, bgcolor: 'rgba(255,255,255,0.9)', borderRadius: 1, px: 1, py: 0.5, fontSize: 12, lineHeight: 1.8 }}>
      <div>{swatch(STATE_COLOURS[1]!)}{t('track.legend.online')}</div>
      <div>{swatch(STATE_COLOURS[2]!)}{t('track.legend.warn')}</div>
      <div>{swatch('#b0b8c0', true)}{t('track.legend.gap')}</div>
      {detail && <div style={{ color: '#555' }} data-testid="track-detail">{t('track.detail')}</div>}
    </Box>
  );
}
