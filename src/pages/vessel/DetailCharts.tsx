import { useMemo } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { LineChart } from '@mui/x-charts/LineChart';
import { keepPreviousData } from '@tanstack/react-query';
import type { SeriesPoint, VesselSeries } from '../../api/vesselApi';
import { useCallQuery } from '../../data/dataHooks';
import type { DataWindow } from '../../domain/vesselSchemas';
import { formatDate } from '../../format/date';
import { formatSignal } from '../../format/signal';
import { useTranslate } from 'ra-core';
import { useClientState } from '../../state/useClientState';
import { FaultList } from './FaultList';
import { LoadState } from './LoadState';
import { StateBands } from './StateBands';

type Metric = 'signal' | 'snr' | 'azimuth' | 'elevation' | 'skew' | 'speed';
const CHARTS: { key: string; metrics: Metric[] }[] = [
  { key: 'signal', metrics: ['signal', 'snr'] },
  { key: 'pointing', metrics: ['azimuth', 'elevation', 'skew'] },
  { key: 'speedChart', metrics: ['speed'] },
];

/**
 * The buckets that hold reports, with a null slot where the vessel went quiet for longer than its
 * offline threshold (and a bucket), so offline time shows as a gap in the lines.
 */
function slots(series: VesselSeries): (SeriesPoint | null)[] {
  const gap = Math.max(series.offlineMinutes * 60_000, series.bucketSeconds * 1000) + series.bucketSeconds * 1000;
  const out: (SeriesPoint | null)[] = [];
  series.points.forEach((p, i) => {
    const prev = series.points[i - 1];
    if (prev && p.t - prev.t > gap) out.push({ t: prev.t + series.bucketSeconds * 1000, n: 0 } as SeriesPoint);
    out.push(p);
  });
  return out;
}

const round = (v: number | undefined) => (v === undefined || v === null ? '' : String(Math.round(v * 10) / 10));
/** A metric's value in a tooltip: the signal level as everywhere (formatSignal), the others to a tenth. */
const formatMetric = (m: Metric, v: number | undefined) => (m === 'signal' ? formatSignal(v) : round(v));

/** The detail charts of one data window (lazy-loaded with @mui/x-charts). */
export default function DetailCharts({ deviceId, window }: { deviceId: number; window: DataWindow }) {
  const t = useTranslate();
  const timeZone = useClientState((s) => s.timeZone);
  // The previous window stays drawn (under the loading bar) while the next one loads.
  const state = useCallQuery('vessel', 'getSeries', [deviceId, window], { placeholderData: keepPreviousData });
  const data = state.data;
  const rows = useMemo(() => (data ? slots(data) : []), [data]);
  // A vessel without a satellite link (a 4G router, docs/devices.md) reports no pointing: its chart is left out, not drawn empty.
  const charts = useMemo(
    () => CHARTS.filter((c) => rows.some((r) => r && r.n && c.metrics.some((m) => typeof r[`${m}Avg`] === 'number'))),
    [rows],
  );
  // The time axis draws in the browser's zone: shift the instants so it shows the selected zone.
  const xs = useMemo(
    () => rows.map((r) => new Date(r!.t + timeZone * 3_600_000 + new Date(r!.t).getTimezoneOffset() * 60_000)),
    [rows, timeZone],
  );
  const longWindow = window === '7d';
  const tick = (d: Date) => {
    const pad = (n: number) => String(n).padStart(2, '0');
    return longWindow ? `${pad(d.getMonth() + 1)}-${pad(d.getDate())}` : `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  };

  return (
    <Stack spacing={2} data-testid="detail-charts" data-window={window} data-loaded={data && !state.isFetching ? 'true' : 'false'}>
      <LoadState state={state} />
      {data && (
        <>
          <Typography variant="caption" color="text.secondary" data-testid="chart-range">
            {formatDate(data.from, timeZone)} – {formatDate(data.to, timeZone)} ·{' '}
            {t('vessel.detail.bucket', { seconds: data.bucketSeconds })}
          </Typography>
          <Box>
            <Typography variant="subtitle2" sx={{ mb: 0.5 }}>
              {t('vessel.detail.bands')}
            </Typography>
            <StateBands bands={data.bands} from={Date.parse(data.from)} to={Date.parse(data.to)} totals={data.totals} />
          </Box>
          {data.points.length === 0 && (
            <Alert severity="info" data-testid="no-data">
              {t('vessel.detail.noData')}
            </Alert>
          )}
          {data.points.length > 0 &&
            charts.map((chart) => (
              <Box key={chart.key} data-testid={`chart-${chart.key}`}>
                <Typography variant="subtitle2">{t(`vessel.detail.${chart.key}`)}</Typography>
                <LineChart
                  height={220}
                  skipAnimation
                  margin={{ left: 8, right: 8 }}
                  grid={{ horizontal: true }}
                  xAxis={[
                    {
                      data: xs,
                      scaleType: 'time',
                      tickNumber: 6,
                      valueFormatter: (d: Date, ctx) =>
                        ctx.location === 'tick'
                          ? tick(d)
                          : formatDate(d.getTime() - timeZone * 3_600_000 - d.getTimezoneOffset() * 60_000, timeZone),
                    },
                  ]}
                  series={chart.metrics.map((m) => ({
                    id: m,
                    label: t(`vessel.detail.series.${m}`),
                    data: rows.map((r) => (r && r.n ? r[`${m}Avg`]! : null)),
                    showMark: false,
                    connectNulls: false,
                    valueFormatter: (v: number | null, { dataIndex }: { dataIndex: number }) => {
                      const r = rows[dataIndex];
                      return v === null || !r
                        ? null
                        : `${formatMetric(m, v)} (${formatMetric(m, r[`${m}Min`])} – ${formatMetric(m, r[`${m}Max`])})`;
                    },
                  }))}
                />
              </Box>
            ))}
          <Box>
            <Typography variant="subtitle2" sx={{ mb: 1 }}>
              {t('vessel.detail.windowFaults')}
            </Typography>
            <FaultList faults={data.faults} testId="window-faults" />
          </Box>
        </>
      )}
    </Stack>
  );
}
