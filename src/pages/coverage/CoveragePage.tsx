import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import L from 'leaflet';
import { keepPreviousData } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
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
  COVERAGE_WINDOW_NAMES,
  resolutionForZoom,
  type CoverageQuery,
  type CoverageResolution,
  type CoverageWindow,
} from '../../domain/coverage';
import { PageHeading } from '../../resources/generic/PageHeading';
import { BaseMap } from '../../map/BaseMap';
import { CoverageLegend } from './CoverageLegend';
import { cellPopup, drawCells } from './coverageLayer';
import { startDrawTiming, timeRequest } from '../../map/drawTiming';

const ALL = '';
/** Bounds are rounded (degrees) so that a small pan asks again only when it shows new ground. */
const round = (v: number) => Math.round(v * 10) / 10;
const wrapLon = (lon: number) => ((((lon + 180) % 360) + 360) % 360) - 180;

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
      west: round(wrapLon(b.getWest())),
      east: round(wrapLon(b.getEast())),
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
  const [satellite, setSatellite] = useState(ALL);
  const [view, setView] = useState<View>({ res: 2, bounds: null });
  const map = useRef<L.Map | null>(null);
  const renderer = useRef<L.Renderer | null>(null);
  const layer = useRef<L.LayerGroup | null>(null);

  const query = useMemo<CoverageQuery>(
    () => ({ window: window_, res: view.res, ...(satellite ? { satellite } : {}), ...(view.bounds ?? {}) }),
    [window_, satellite, view],
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

  const words = useMemo(
    () => ({
      title: t('vessel.coverage.cell.title'),
      samples: t('vessel.coverage.cell.samples'),
      locked: t('vessel.coverage.cell.locked'),
      medianSnr: t('vessel.coverage.cell.medianSnr'),
      none: t('vessel.coverage.cell.none'),
    }),
    [t],
  );
  useEffect(() => {
    const m = map.current;
    if (!m || !renderer.current || !data) return undefined;
    const timing = startDrawTiming('coverage');
    const drawn = drawCells(data.cells, data.minSamples, (cell) => cellPopup(cell, words, (n) => n.toLocaleString()), renderer.current);
    drawn.addTo(m);
    layer.current = drawn;
    timing.drawn();
    requestAnimationFrame(() => timing.onScreen(data.cells.length));
    return () => {
      drawn.remove();
      if (layer.current === drawn) layer.current = null;
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
              label={t('vessel.coverage.satellite')}
              value={satellite}
              onChange={(e) => setSatellite(e.target.value)}
              sx={{ minWidth: 220 }}
              slotProps={{ htmlInput: { 'data-testid': 'coverage-satellite' }, select: { displayEmpty: true }, inputLabel: { shrink: true } }}
            >
              <MenuItem value={ALL}>{t('vessel.coverage.allSatellites')}</MenuItem>
              {/* A satellite chosen before the window changed stays a choice, with or without cells. */}
              {[...new Set([...satellites, ...(satellite ? [satellite] : [])])].map((name) => (
                <MenuItem key={name} value={name}>
                  {name}
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
            <CoverageLegend minSamples={data?.minSamples ?? COVERAGE_MIN_SAMPLES} />
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
