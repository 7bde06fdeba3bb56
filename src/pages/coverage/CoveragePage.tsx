import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import L from 'leaflet';
import { keepPreviousData } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import ListSubheader from '@mui/material/ListSubheader';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'ra-core';
import { useCallQuery } from '../../data/dataHooks';
import {
  COVERAGE_CELL_KM,
  COVERAGE_MIN_SAMPLES,
  COVERAGE_LINK_KINDS,
  COVERAGE_WINDOW_NAMES,
  resolutionForZoom,
  type CoverageCell,
  type CoverageQuery,
  type CoverageResolution,
  type CoverageWindow,
} from '../../domain/coverage';
import { PageHeading } from '../../resources/generic/PageHeading';
import { BaseMap } from '../../map/BaseMap';
import { CoverageLegend } from './CoverageLegend';
import { cellPopup, drawCells } from './coverageLayer';
import { startDrawTiming, timeRequest } from '../../map/drawTiming';
import { wrapLongitude } from '../../domain/greatCircle';

const ALL = '';
/** The layer choice's values: ALL, a satellite's name or a link kind, each with its own prefix (a satellite may be named anything). */
const SAT_PREFIX = 'sat:';
const LINK_PREFIX = 'link:';
const linkOf = (layer: string) => COVERAGE_LINK_KINDS.find((k) => layer === `${LINK_PREFIX}${k}`);
const satelliteOf = (layer: string) => (layer.startsWith(SAT_PREFIX) ? layer.slice(SAT_PREFIX.length) : undefined);
/** Bounds are rounded (degrees) so that a small pan asks again only when it shows new ground. */
const round = (v: number) => Math.round(v * 10) / 10;

interface View {
  res: CoverageResolution;
  bounds: Pick<CoverageQuery, 'south' | 'west' | 'north' | 'east'> | null;
}

/** What the map shows: its zoom's resolution and, below world zoom, its bounds with half a screen around them. */
function viewOf(map: L.Map): View {
  const res = resolutionForZoom(map.getZoom());
  if (res === 2) return { res, bounds: null };
  const b = map.getBounds().pad(0.5);
  if (b.getEast() - b.getWest() >= 360) return { res, bounds: null };
  return {
    res,
    bounds: {
      south: round(Math.max(-90, b.getSouth())),
      north: round(Math.min(90, b.getNorth())),
      west: round(wrapLongitude(b.getWest())),
      east: round(wrapLongitude(b.getEast())),
    },
  };
}

/**
 * The fleet's coverage map (/device/coverage): link quality per H3 cell from every vessel's
 * reports over 7, 30 or 90 days, for one satellite or all. The cells' size follows the zoom; a
 * cell with too few reports is outlined, not coloured; a click shows its figures.
 */
export default function CoveragePage() {
  const t = useTranslate();
  const [window_, setWindow] = useState<CoverageWindow>('30d');
  /** The layer: all satellites (ALL), a satellite (SAT_PREFIX + name), or a link kind (LINK_PREFIX + kind). */
  const [layer, setLayer] = useState(ALL);
  const link = linkOf(layer);
  const satellite = satelliteOf(layer);
  const [view, setView] = useState<View>({ res: 2, bounds: null });
  const map = useRef<L.Map | null>(null);
  const renderer = useRef<L.Renderer | null>(null);
  const drawnLayer = useRef<L.LayerGroup | null>(null);

  const query = useMemo<CoverageQuery>(
    () => ({
      window: window_,
      res: view.res,
      ...(link ? { link } : satellite ? { satellite } : {}),
      ...(view.bounds ?? {}),
    }),
    [window_, link, satellite, view],
  );
  const coverage = useCallQuery('vessel', 'getCoverage', [query], { placeholderData: keepPreviousData, around: timeRequest('coverage') });
  const data = coverage.data;

  const onReady = useCallback((m: L.Map) => {
    map.current = m;
    renderer.current = L.canvas({ padding: 0.5 });
    const moved = () =>
      setView((before) => {
        const next = viewOf(m);
        return JSON.stringify(next) === JSON.stringify(before) ? before : next;
      });
    m.on('moveend', moved);
    return () => {
      m.off('moveend', moved);
    };
  }, []);

  // The layer drawn is the answer's (while another is fetched, the previous one stays on the map).
  const linkLayer = !!data?.link;
  const words = useMemo(
    () => ({
      title: t('vessel.coverage.cell.title'),
      samples: t('vessel.coverage.cell.samples'),
      locked: t(linkLayer ? 'vessel.coverage.cell.available' : 'vessel.coverage.cell.locked'),
      ...(linkLayer ? {} : { medianSnr: t('vessel.coverage.cell.medianSnr') }),
      none: t('vessel.coverage.cell.none'),
    }),
    [t, linkLayer],
  );
  useEffect(() => {
    const m = map.current;
    if (!m || !renderer.current || !data) return undefined;
    const timing = startDrawTiming('coverage');
    const popup = (cell: CoverageCell) => cellPopup(cell, words, (n) => n.toLocaleString());
    const drawn = drawCells(data.cells, data.minSamples, popup, renderer.current, !!data.link);
    drawn.addTo(m);
    drawnLayer.current = drawn;
    timing.drawn();
    requestAnimationFrame(() => timing.onScreen(data.cells.length));
    return () => {
      drawn.remove();
      if (drawnLayer.current === drawn) drawnLayer.current = null;
    };
  }, [data, words]);

  const samples = data?.cells.reduce((sum, c) => sum + c[1], 0) ?? 0;
  const satellites = data?.satellites ?? [];
  return (
    <>
      <PageHeading titleKey="menu.coverage" />
      <Stack spacing={1.5} data-testid="coverage-page">
        <Paper variant="outlined" sx={{ p: 1.5 }}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} useFlexGap sx={{ alignItems: { sm: 'center' }, flexWrap: 'wrap' }}>
            <TextField
              select
              size="small"
              label={t('vessel.coverage.window')}
              value={window_}
              onChange={(e) => setWindow(e.target.value as CoverageWindow)}
              sx={{ minWidth: 160 }}
              slotProps={{ htmlInput: { 'data-testid': 'coverage-window' } }}
            >
              {COVERAGE_WINDOW_NAMES.map((w) => (
                <MenuItem key={w} value={w}>
                  {t(`vessel.coverage.windows.${w}`)}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              size="small"
              label={t('vessel.coverage.layer')}
              value={layer}
              onChange={(e) => setLayer(e.target.value)}
              sx={{ minWidth: 220 }}
              slotProps={{ htmlInput: { 'data-testid': 'coverage-layer' }, select: { displayEmpty: true }, inputLabel: { shrink: true } }}
            >
              <ListSubheader>{t('vessel.coverage.satellites')}</ListSubheader>
              <MenuItem value={ALL}>{t('vessel.coverage.allSatellites')}</MenuItem>
              {/* A satellite chosen before the window changed stays a choice, with or without cells. */}
              {[...new Set([...satellites, ...(satellite ? [satellite] : [])])].map((name) => (
                <MenuItem key={name} value={`${SAT_PREFIX}${name}`}>
                  {name}
                </MenuItem>
              ))}
              <ListSubheader>{t('vessel.coverage.links')}</ListSubheader>
              {/* Every kind is a choice: one without cells shows the map empty, with its note. */}
              {COVERAGE_LINK_KINDS.map((kind) => (
                <MenuItem key={kind} value={`${LINK_PREFIX}${kind}`}>
                  {t(`vessel.wan.kinds.${kind}`)}
                </MenuItem>
              ))}
            </TextField>
            <Typography variant="body2" color="text.secondary" sx={{ flex: 1, minWidth: 200 }}>
              {t('vessel.coverage.hint')}
            </Typography>
          </Stack>
        </Paper>
        {coverage.isError && <Alert severity="error">{t('vessel.coverage.loadFailed')}</Alert>}
        <Paper variant="outlined" sx={{ position: 'relative', overflow: 'hidden' }}>
          {coverage.isFetching && (
            <LinearProgress sx={{ position: 'absolute', top: 0, left: 0, right: 0, zIndex: 1000 }} aria-label={t('vessel.coverage.loading')} />
          )}
          {/* data-cells: the cells drawn, for the browser tests (the canvas has no DOM per cell). */}
          <Box sx={{ height: { xs: '55vh', md: 'calc(100vh - 320px)' }, minHeight: 300 }} data-cells={data?.cells.length ?? ''}>
            <BaseMap onReady={onReady} zoom={2} style={{ height: '100%', minHeight: 0 }} data-testid="coverage-map" />
          </Box>
          {data && !data.cells.length && (
            <Alert
              severity="info"
              sx={{ position: 'absolute', top: 12, left: '50%', transform: 'translateX(-50%)', zIndex: 1000, maxWidth: '90%' }}
              data-testid="coverage-empty"
            >
              {t('vessel.coverage.empty')}
            </Alert>
          )}
        </Paper>
        <Paper variant="outlined" sx={{ p: 1.5 }}>
          <Stack spacing={1}>
            <CoverageLegend minSamples={data?.minSamples ?? COVERAGE_MIN_SAMPLES} linkLayer={linkLayer} />
            {data && (
              <Typography variant="body2" color="text.secondary" data-testid="coverage-summary">
                {t('vessel.coverage.summary', { cells: data.cells.length.toLocaleString(), samples: samples.toLocaleString(), from: data.from, to: data.to })}
                {' · '}
                {t('vessel.coverage.cellSize', { km: COVERAGE_CELL_KM[data.res] })}
              </Typography>
            )}
          </Stack>
        </Paper>
      </Stack>
    </>
  );
}
