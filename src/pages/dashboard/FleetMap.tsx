import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import type L from 'leaflet';
import Box from '@mui/material/Box';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import TextField from '@mui/material/TextField';
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

/** Zoom the search centres a found vessel at (at least; a closer view is kept). */
const FOUND_ZOOM = 9;

/** What the search matches a vessel by: its name, MMSI and device number, and its state in both words and the chosen language. */
function searchText(d: DeviceLiveState, stateName: string): string {
  const state = ['offline', 'online', 'warn alarm'][d.status] ?? 'offline';
  return `${d.name} ${d.mmsi ?? ''} ${d.deviceNum ?? ''} ${state} ${stateName}`.toLowerCase();
}

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
  const [sameSpot, setSameSpot] = useState<number[] | null>(null);
  const { data } = useCallQuery('monitoring', 'liveAll', [EVERY_DEVICE], {
    background: 'polled',
    refetchInterval: dashboardRefreshMs(useWarnRefreshSeconds()),
  });

  const onReady = useCallback((map: L.Map) => {
    mapRef.current = map;
    layer.current = new VesselLayer({
      onVesselClick: (v) => {
        setSameSpot(null);
        setSelectedId(v.id);
      },
      onGroupClick: (vessels) => {
        setSelectedId(null);
        setSameSpot(vessels.map((v) => v.id));
      },
    }).addTo(map);
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
  const stateName = useCallback(
    (d: DeviceLiveState) => translate(DEVICE_STATE_KEYS[d.status as DeviceState] ?? 'deviceState.offline'),
    [translate],
  );
  const searchable = useMemo(() => (data ?? []).filter((d) => d.lat !== null && d.lon !== null), [data]);
  /** A found vessel: the map centres on it (zoomed in, so one on a shared spot is drawn apart) and its card opens. */
  const find = (d: DeviceLiveState | null) => {
    if (!d || d.lat === null || d.lon === null || !mapRef.current) return;
    unfollow.current?.();
    unfollow.current = null;
    mapRef.current.setView([d.lat, d.lon], Math.max(mapRef.current.getZoom(), FOUND_ZOOM));
    setSameSpot(null);
    setSelectedId(d.id);
  };
  const spot = sameSpot ? (data ?? []).filter((d) => sameSpot.includes(d.id)) : [];
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
      {searchable.length > 0 && (
        <Autocomplete
          size="small"
          options={searchable}
          getOptionLabel={(d) => d.name}
          filterOptions={(options, { inputValue }) => {
            const words = inputValue.trim().toLowerCase().split(/\s+/).filter(Boolean);
            return options.filter((d) => words.every((w) => searchText(d, stateName(d).toLowerCase()).includes(w))).slice(0, 50);
          }}
          renderOption={({ key, ...props }, d) => (
            <Box component="li" key={key} {...props} data-testid={`fleet-search-option-${d.id}`} sx={{ gap: 1 }}>
              <Box sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: stateColour(d.status), flex: 'none' }} />
              <Box sx={{ minWidth: 0 }}>
                <Box sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{d.name}</Box>
                <Box sx={{ fontSize: 12, color: 'text.secondary' }}>
                  {[d.mmsi ? `MMSI ${d.mmsi}` : null, stateName(d)].filter(Boolean).join(' · ')}
                </Box>
              </Box>
            </Box>
          )}
          onChange={(_, d) => find(d)}
          noOptionsText={translate('monitor.dashboard.searchNoMatch')}
          renderInput={(params) => (
            <TextField
              {...params}
              placeholder={translate('monitor.dashboard.searchVessel')}
              slotProps={{
                htmlInput: {
                  ...params.inputProps,
                  'data-testid': 'fleet-search',
                  'aria-label': translate('monitor.dashboard.searchVessel'),
                },
              }}
            />
          )}
          sx={{
            position: 'absolute',
            zIndex: 1000,
            top: 8,
            left: 52,
            width: 'min(300px, calc(100% - 60px))',
            '& .MuiInputBase-root': { bgcolor: 'background.paper', boxShadow: 2 },
          }}
        />
      )}
      {spot.length > 0 && (
        <Paper
          elevation={4}
          data-testid="vessel-list"
          sx={{
            position: 'absolute',
            zIndex: 1000,
            right: 8,
            top: { xs: 52, sm: 8 },
            width: 'min(280px, calc(100% - 16px))',
            maxHeight: { xs: 'calc(100% - 60px)', sm: 'calc(100% - 16px)' },
            overflow: 'auto',
          }}
        >
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, pl: 1.5, pr: 0.5, pt: 0.5 }}>
            <Typography sx={{ fontWeight: 600, fontSize: 13, flex: 1 }}>
              {translate('monitor.dashboard.sameSpot', { smart_count: spot.length })}
            </Typography>
            <IconButton size="small" onClick={() => setSameSpot(null)} aria-label={translate('monitor.dashboard.close')}>
              <CloseIcon fontSize="small" />
            </IconButton>
          </Box>
          <List dense disablePadding>
            {spot.map((d) => (
              <ListItemButton
                key={d.id}
                data-testid={`vessel-list-item-${d.id}`}
                onClick={() => {
                  setSameSpot(null);
                  setSelectedId(d.id);
                }}
                sx={{ gap: 1, fontSize: 13 }}
              >
                <Box sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: stateColour(d.status), flex: 'none' }} />
                <Box sx={{ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{d.name}</Box>
                <Box component="span" sx={{ color: 'text.secondary', fontSize: 12 }}>
                  {stateName(d)}
                </Box>
              </ListItemButton>
            ))}
          </List>
        </Paper>
      )}
      {selected && (
        <Paper
          elevation={4}
          data-testid="vessel-popup"
          sx={{
            position: 'absolute',
            zIndex: 1000,
            right: 8,
            top: { xs: 52, sm: 8 },
            p: 1.5,
            width: 'min(280px, calc(100% - 16px))',
            fontSize: 13,
          }}
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
