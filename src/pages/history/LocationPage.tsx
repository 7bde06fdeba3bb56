import { useCallback, useEffect, useRef, useState } from 'react';
import { useNotify } from 'react-admin';
import L from 'leaflet';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { ManualPosition } from '../../api/historyApi';
import { useCallMutation, useCallQuery } from '../../data/dataHooks';
import { errorCode } from '../../data/dataProvider';
import { ErrorCode } from '../../domain/errorCodes';
import { canEditDevices } from '../../domain/levels';
import { formatPosition } from '../../domain/position';
import { LOCATION_WINDOWS, type LocationWindow } from '../../domain/track';
import { useDateFormatter } from '../../format/useDateFormatter';
import { useTranslate } from 'ra-core';
import { PageHeading } from '../../resources/generic/PageHeading';
import { FeatureLockedNotice } from '../../layout/FeatureGate';
import { BaseMap } from '../../map/BaseMap';
import { useClientState } from '../../state/useClientState';
import { PositionForm } from './PositionForm';
import { VesselPicker } from '../vessel/VesselPicker';
import { useVesselId } from '../vessel/useVesselId';

const pin = (colour: string, testId: string) =>
  L.divIcon({
    className: 'location-pin',
    html: `<div data-testid="${testId}" style="width:16px;height:16px;transform:rotate(45deg);background:${colour};border:2px solid #fff;box-shadow:0 0 3px rgba(0,0,0,.6)"></div>`,
    iconSize: [20, 20],
    iconAnchor: [10, 10],
  });

/**
 * Device Location (/device/deviceLocation): where a vessel has been over a week, month, 3 months
 * or year, as the server thins it for the zoom (one dot per cell, the time on hover), its latest
 * and manual positions, and the hand-typed position form.
 */
export default function LocationPage() {
  const t = useTranslate();
  const notify = useNotify();
  const date = useDateFormatter();
  const level = useClientState((s) => s.permissionLevel);
  const [deviceId, setDeviceId] = useVesselId();
  const [window_, setWindow] = useState<LocationWindow>('week');
  const [zoom, setZoom] = useState(3);
  const mapRef = useRef<L.Map | null>(null);
  const layer = useRef<L.LayerGroup | null>(null);
  const renderer = useRef<L.Renderer | null>(null);
  const fitted = useRef<string>('');

  // The positions of the vessel over the window, thinned for the zoom; another vessel, window or zoom aborts the one under way.
  const location = useCallQuery('history', 'location', deviceId ? [deviceId, window_, zoom] : null, { abortable: true });
  const data = location.data ?? null;
  const locked = errorCode(location.error) === ErrorCode.Forbidden;
  // A locked feature still shows the manual position, asked on its own.
  const lockedManual = useCallQuery('history', 'manualPosition', deviceId && locked ? [deviceId] : null);
  const manual: ManualPosition | null = (locked ? lockedManual.data : data?.manual) ?? null;
  const status: 'idle' | 'loading' | 'locked' | 'error' = !deviceId
    ? 'idle'
    : locked
      ? 'locked'
      : location.error
        ? 'error'
        : location.isFetching && !location.data
          ? 'loading'
          : 'idle';

  // Setting or clearing the manual position refreshes the history calls (the location answer carries it).
  const setManualPosition = useCallMutation('history', 'setManualPosition');
  const clearManualPosition = useCallMutation('history', 'clearManualPosition');

  // Draw the positions (oldest faint, newest strong), the latest and the manual position.
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !renderer.current) return;
    layer.current?.remove();
    const group = L.layerGroup().addTo(map);
    layer.current = group;
    const points = data?.points ?? [];
    const span = Math.max(1, (points.at(-1)?.[3] ?? 0) - (points[0]?.[3] ?? 0));
    for (const [lat, lon, first, last, count] of points) {
      const age = ((points.at(-1)?.[3] ?? last) - last) / span;
      const marker = L.circleMarker([lat, lon], {
        renderer: renderer.current,
        radius: 4,
        weight: 1,
        color: '#0d47a1',
        fillColor: '#1976d2',
        fillOpacity: 0.9 - age * 0.6,
        opacity: 0.9 - age * 0.5,
      });
      const when = first === last ? date(last * 1000) : `${date(first * 1000)} – ${date(last * 1000)}`;
      marker.bindTooltip(`${when}<br>${formatPosition(lat, lon)}<br>${t('track.location.visits', { count })}`, { direction: 'top' });
      marker.addTo(group);
    }
    const bounds: L.LatLngTuple[] = points.map(([lat, lon]) => [lat, lon]);
    if (data?.latest) {
      L.marker([data.latest.lat, data.latest.lon], { icon: pin('#2e9d4f', 'latest-pin'), title: t('track.location.latest') })
        .bindTooltip(
          `${t('track.location.latest')}<br>${date(data.latest.reportedAt)}<br>${formatPosition(data.latest.lat, data.latest.lon)}`,
        )
        .addTo(group);
      bounds.push([data.latest.lat, data.latest.lon]);
    }
    if (manual) {
      L.marker([manual.lat, manual.lon], { icon: pin('#ef6c00', 'manual-pin'), title: t('track.location.manual') })
        .bindTooltip(`${t('track.location.manual')}<br>${formatPosition(manual.lat, manual.lon, 2)}<br>${date(manual.setAt)}`)
        .addTo(group);
      if (!bounds.length) bounds.push([manual.lat, manual.lon]);
    }
    // Fit once per vessel and window; zooming asks again with the new zoom, which must not refit.
    const key = `${deviceId}:${window_}`;
    if (bounds.length && fitted.current !== key && data) {
      fitted.current = key;
      map.invalidateSize({ animate: false });
      map.fitBounds(L.latLngBounds(bounds), { padding: [30, 30], maxZoom: 10, animate: false });
    }
    map.getContainer().setAttribute('data-location-points', String(points.length));
  }, [data, manual, date, t, deviceId, window_]);

  const onReady = useCallback((map: L.Map) => {
    mapRef.current = map;
    renderer.current = L.canvas({ padding: 0.3 });
    let timer = 0;
    const onZoom = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => setZoom(Math.round(map.getZoom())), 300);
    };
    map.on('zoomend', onZoom);
    return () => {
      map.off('zoomend', onZoom);
      window.clearTimeout(timer);
      mapRef.current = null;
    };
  }, []);

  const canSetVessel = Boolean(deviceId) && canEditDevices(level);
  return (
    <>
      {/* The page's one h1, named as its menu entry, breadcrumb and tab; outside the Stack, whose spacing it would shift. */}
      <PageHeading titleKey="menu.deviceLocation" />
      <Stack spacing={1.5} data-testid="location-page">
        <Paper variant="outlined" sx={{ p: 1.5 }}>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} useFlexGap sx={{ alignItems: { md: 'center' }, flexWrap: 'wrap' }}>
            <VesselPicker value={deviceId} onChange={setDeviceId} />
            <ToggleButtonGroup
              size="small"
              exclusive
              value={window_}
              onChange={(_, w: LocationWindow | null) => w && setWindow(w)}
              aria-label={t('track.location.window')}
            >
              {LOCATION_WINDOWS.map((w) => (
                <ToggleButton key={w} value={w} data-testid={`location-${w}`} sx={{ px: 1.25, py: 0.5 }}>
                  {t(`track.location.windows.${w}`)}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
            {data && (
              <Typography variant="body2" color="text.secondary" data-testid="location-count">
                {t('track.location.points', { count: data.points.length })}
              </Typography>
            )}
          </Stack>
        </Paper>
        {!deviceId && <Alert severity="info">{t('track.pickVessel')}</Alert>}
        {status === 'locked' && <FeatureLockedNotice />}
        {status === 'error' && <Alert severity="error">{t('track.loadFailed')}</Alert>}
        <Box sx={{ display: 'flex', flexDirection: { xs: 'column', md: 'row' }, gap: 1.5 }}>
          <Paper variant="outlined" sx={{ flex: 1, minWidth: 0, position: 'relative', overflow: 'hidden' }}>
            {status === 'loading' && (
              <LinearProgress sx={{ position: 'absolute', top: 0, left: 0, right: 0, zIndex: 1000 }} aria-label={t('track.loading')} />
            )}
            <Box sx={{ height: { xs: '52vh', md: 'calc(100vh - 230px)' }, minHeight: 300 }}>
              <BaseMap onReady={onReady} zoom={3} style={{ height: '100%', minHeight: 0 }} data-testid="location-map" />
            </Box>
            {data && !data.points.length && (
              <Alert severity="info" sx={{ position: 'absolute', top: 12, left: '50%', transform: 'translateX(-50%)', zIndex: 1000 }}>
                {t('track.location.empty')}
              </Alert>
            )}
          </Paper>
          <Box sx={{ width: { xs: '100%', md: 320 }, flexShrink: 0 }}>
            <PositionForm
              canSetVessel={canSetVessel}
              hasManual={Boolean(manual)}
              onCentre={({ lat, lon }) => mapRef.current?.setView([lat, lon], Math.max(mapRef.current.getZoom(), 6))}
              onSetVessel={async (p) => {
                if (!deviceId) return;
                // A refusal: the error catalogue has shown the message.
                const saved = await setManualPosition.mutateAsync([deviceId, p]).catch(() => null);
                if (!saved) return;
                mapRef.current?.setView([saved.lat, saved.lon], Math.max(mapRef.current.getZoom(), 6));
                notify('track.position.saved', { type: 'success' });
              }}
              onClearVessel={async () => {
                if (!deviceId) return;
                if (
                  (await clearManualPosition.mutateAsync([deviceId]).then(
                    () => true,
                    () => false,
                  )) === false
                )
                  return;
                notify('track.position.cleared', { type: 'success' });
              }}
            />
          </Box>
        </Box>
      </Stack>
    </>
  );
}
