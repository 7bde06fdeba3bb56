import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import { useCallMutation } from '../../data/dataHooks';
import { TRACK_WINDOWS, trackQuerySchema, type TrackWindow } from '../../domain/track';
import { validate } from '../../domain/validate';
import { useTranslate } from 'ra-core';
import { PageHeading } from '../../resources/generic/PageHeading';
import { FeatureLockedNotice, useDeviceFeatures } from '../../layout/FeatureGate';
import { BaseMap } from '../../map/BaseMap';
import { useClientState } from '../../state/useClientState';
import { CursorReport, SummaryPanel, TrackLegend } from './TrackPanels';
import { CustomRangeFields, ExportButtons, PlaybackBar, WindowPicker, type CustomRange } from './TrackControls';
import { useDetailTrack, useOverviewTrack, type DetailView, type TrackQuery } from './useTrackQueries';
import { useTrackMap } from './useTrackMap';
import { VesselPicker } from '../vessel/VesselPicker';
import { useVesselId } from '../vessel/useVesselId';
import { localInputToIsoOrUndefined, msToLocalInput } from '../../format/zonedInput';

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
    return (TRACK_WINDOWS as readonly string[]).includes(asked ?? '') ? (asked as TrackWindow) : '3d';
  });
  const [custom, setCustom] = useState<CustomRange>(() => ({
    from: msToLocalInput(Date.now() - 86_400_000, timeZone),
    to: msToLocalInput(Date.now(), timeZone),
  }));
  const [customApplied, setCustomApplied] = useState<{ from: string; to: string } | null>(null);
  const [customErrors, setCustomErrors] = useState<Record<string, string>>({});
  const [detailView, setDetailView] = useState<DetailView | null>(null);
  const [follow, setFollow] = useState(true);
  const features = useDeviceFeatures(deviceId);
  const featureLocked = features !== null && !features.trackHistory;

  const query = useMemo<TrackQuery | null>(
    () =>
      deviceId
        ? {
            deviceId,
            window: window_,
            from: customApplied?.from,
            to: customApplied?.to,
          }
        : null,
    [deviceId, window_, customApplied],
  );
  const { data, locked, loadState, points, start, end } = useOverviewTrack(query, featureLocked);
  const detailData = useDetailTrack(query, data, detailView);

  // The export is a download (src/api/transfer.ts) reached through the dataProvider; it changes nothing.
  const exportTrack = useCallMutation('history', 'exportTrack', { calls: [] });

  const { onReady, playback, detail, cursorIndex } = useTrackMap({
    query,
    data,
    points,
    start,
    end,
    detailView,
    setDetailView,
    detailData,
    follow,
  });

  const applyCustom = () => {
    const from = localInputToIsoOrUndefined(custom.from, timeZone);
    const to = localInputToIsoOrUndefined(custom.to, timeZone);
    const checked = validate(trackQuerySchema, {
      deviceId: deviceId ?? 0,
      window: 'custom',
      from: from ?? custom.from,
      to: to ?? custom.to,
    });
    if (!checked.ok) return setCustomErrors(Object.fromEntries(checked.errors.map((e) => [e.field, e.message])));
    setCustomErrors({});
    setCustomApplied({ from: from!, to: to! });
  };

  return (
    <>
      {/* The page's one h1, named as its menu entry, breadcrumb and tab; outside the Stack, whose spacing it would shift. */}
      <PageHeading titleKey="menu.map" />
      <Stack spacing={1.5} data-testid="track-page">
        <Paper variant="outlined" sx={{ p: 1.5 }}>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} useFlexGap sx={{ alignItems: { md: 'center' }, flexWrap: 'wrap' }}>
            <VesselPicker value={deviceId} onChange={setDeviceId} />
            <WindowPicker
              value={window_}
              onChange={(w) => {
                setWindow(w);
                if (w !== 'custom') setCustomApplied(null);
              }}
            />
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
            {loadState === 'loading' && (
              <LinearProgress sx={{ position: 'absolute', top: 0, left: 0, right: 0, zIndex: 1000 }} aria-label={t('track.loading')} />
            )}
            <Box sx={{ height: { xs: '52vh', md: 'calc(100vh - 330px)' }, minHeight: 300 }}>
              <BaseMap onReady={onReady} zoom={3} style={{ height: '100%', minHeight: 0 }} data-testid="track-map" />
            </Box>
            <TrackLegend detail={detail} />
            {data && !points.length && (
              <Alert
                severity="info"
                sx={{ position: 'absolute', top: 12, left: '50%', transform: 'translateX(-50%)', zIndex: 1000 }}
                data-testid="track-empty"
              >
                {t('track.empty')}
              </Alert>
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
            <PlaybackBar
              start={start}
              end={end}
              cursor={playback.cursor}
              playing={playback.playing}
              speed={playback.speed}
              follow={follow}
              onPlay={playback.play}
              onPause={playback.pause}
              onSeek={playback.seek}
              onSpeed={playback.setSpeed}
              onFollow={setFollow}
            />
          </Paper>
        )}
      </Stack>
    </>
  );
}
