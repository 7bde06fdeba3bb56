import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import type L from 'leaflet';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import { dashboardRefreshMs, type DeviceLiveState, type LiveStateQuery } from '../../api/monitoringApi';
import { useCallQuery } from '../../data/dataHooks';
import { useWarnRefreshSeconds } from '../../state/preferences';
import { DEVICE_STATE_KEYS, type DeviceState } from '../../domain/deviceKinds';
import { BaseMap } from '../../map/BaseMap';
import { fitAndFollow, pointsBounds } from '../../map/fitView';
import { VesselLayer, type MapVessel } from '../../map/vesselLayer';
import { stateColour } from '../../map/vesselStyle';
import { deviceDetailPath, deviceTrackPath } from '../monitor/devicePaths';
import { formatHeading, formatPosition, LastReport } from '../monitor/liveFormat';

declare global {
  interface Window {
    /** Test hook: what the fleet map drew last (tests/e2e/monitoring.test.ts). */
    __fleetMap?: { readonly stats: VesselLayer['stats']; map: L.Map };
  }
}

/** The fleet map asks for every visible device. */
const EVERY_DEVICE: LiveStateQuery = {};

const toMapVessel = (d: DeviceLiveState): MapVessel | null =>
  d.lat === null || d.lon === null ? null : { id: d.id, name: d.name, lat: d.lat, lon: d.lon, heading: d.heading, status: d.status };

/**
 * The dashboard's live fleet map: the offline base map with every visible vessel on one canvas
 * layer (src/map/vesselLayer.ts), refreshed by itself; a click on a vessel opens a small card.
 */
export function FleetMap({ height }: { height: number | string }) {
  const translate = useTranslate();
  const layer = useRef<VesselLayer | null>(null);
  const mapRef = useRef<L.Map | null>(null);
  const fitted = useRef(false);
  const unfollow = useRef<(() => void) | null>(null);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const { data } = useCallQuery('monitoring', 'liveAll', [EVERY_DEVICE], {
    background: 'polled',
    refetchInterval: dashboardRefreshMs(useWarnRefreshSeconds()),
  });

  const onReady = useCallback((map: L.Map) => {
    mapRef.current = map;
    layer.current = new VesselLayer({ onVesselClick: (v) => setSelectedId(v.id) }).addTo(map);
    window.__fleetMap = {
      get stats() {
        return layer.current!.stats;
      },
      map,
    };
    return () => {
      unfollow.current?.();
      layer.current?.remove();
      layer.current = null;
      mapRef.current = null;
      delete window.__fleetMap;
    };
  }, []);

  useEffect(() => {
    if (!data || !layer.current || !mapRef.current) return;
    const vessels = data.map(toMapVessel).filter((v): v is MapVessel => v !== null);
    layer.current.setVessels(vessels);
    if (!fitted.current && vessels.length) {
      fitted.current = true;
      // The whole fleet, across the antimeridian when that is the shorter way; kept framed while
      // the layout settles or the window changes, until the user moves the map.
      const bounds = pointsBounds(vessels.map((v) => [v.lat, v.lon] as const));
      if (bounds) unfollow.current = fitAndFollow(mapRef.current, bounds, { padding: 24, maxZoom: 6 });
    }
  }, [data]);

  const selected = data?.find((d) => d.id === selectedId) ?? null;
  return (
    <Box sx={{ position: 'relative', height, borderRadius: 1, overflow: 'hidden' }}>
      <BaseMap onReady={onReady} data-testid="fleet-map" style={{ height: '100%' }} />
      {data && !data.some((d) => d.lat !== null) && (
        <Box sx={{ position: 'absolute', inset: 0, zIndex: 900, display: 'grid', placeItems: 'center', pointerEvents: 'none' }}>
          <Typography
            sx={{ bgcolor: 'rgba(255,255,255,0.9)', px: 2, py: 1, borderRadius: 1, color: 'text.secondary' }}
            data-testid="fleet-map-empty"
          >
            {translate('monitor.dashboard.noPositions')}
          </Typography>
        </Box>
      )}
      {selected && (
        <Paper
          elevation={4}
          data-testid="vessel-popup"
          sx={{ position: 'absolute', zIndex: 1000, right: 8, top: 8, p: 1.5, width: 'min(280px, calc(100% - 16px))', fontSize: 13 }}
        >
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <Box sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: stateColour(selected.status), flex: 'none' }} />
            <Typography sx={{ fontWeight: 600, flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
              {selected.name}
            </Typography>
            <IconButton size="small" onClick={() => setSelectedId(null)} aria-label={translate('monitor.dashboard.close')}>
              <CloseIcon fontSize="small" />
            </IconButton>
          </Box>
          <Box sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 1.5, rowGap: 0.25, mt: 0.5 }}>
            <Box component="span" sx={{ color: 'text.secondary' }}>
              {translate('monitor.column.state')}
            </Box>
            <span>
              {translate(DEVICE_STATE_KEYS[selected.status as DeviceState] ?? 'deviceState.offline')}
              {selected.faults.length ? ` · ${selected.faults.join(', ')}` : ''}
            </span>
            <Box component="span" sx={{ color: 'text.secondary' }}>
              {translate('monitor.dashboard.lastReport')}
            </Box>
            <LastReport at={selected.reportedAt} />
            <Box component="span" sx={{ color: 'text.secondary' }}>
              {translate('monitor.dashboard.speed')}
            </Box>
            <span>
              {selected.speed === null ? '' : translate('monitor.knots', { value: selected.speed.toFixed(1) })} ·{' '}
              {formatHeading(selected.heading)}
            </span>
            <Box component="span" sx={{ color: 'text.secondary' }}>
              {translate('monitor.column.position')}
            </Box>
            <span>{formatPosition(selected.lat, selected.lon)}</span>
          </Box>
          <Box sx={{ display: 'flex', gap: 1, mt: 1 }}>
            <Button size="small" variant="outlined" component={RouterLink} to={deviceDetailPath(selected.id)}>
              {translate('monitor.detail')}
            </Button>
            <Button size="small" variant="outlined" component={RouterLink} to={deviceTrackPath(selected.id)}>
              {translate('monitor.track')}
            </Button>
          </Box>
        </Paper>
      )}
    </Box>
  );
}
