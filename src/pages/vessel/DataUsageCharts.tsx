import { useMemo } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useTranslate } from 'ra-core';
import type { DataUsage } from '../../api/dataPlansApi';
import { formatBytes, GB } from '../../domain/dataPlans';

const DAY_MS = 86_400_000;
/** Days of the daily chart (a month: the current period's and the days before it). */
const DAILY_DAYS = 31;
const gb = (bytes: number) => Math.round((bytes / GB) * 100) / 100;
const label = (date: string) => date.slice(5);

/**
 * The data usage charts (lazy-loaded with @mui/x-charts): bytes per UTC day over the last month,
 * and the current period's cumulative usage against the quota line, day by day to the period's end.
 */
export default function DataUsageCharts({ usage, locale }: { usage: DataUsage; locale: string }) {
  const t = useTranslate();
  const theme = useTheme();
  // A label every few days (every week on a phone), so they never crowd.
  const every = useMediaQuery(theme.breakpoints.down('sm')) ? 7 : 3;
  const sparse = (_: unknown, index: number) => index % every === 0;
  const daily = usage.daily.slice(-DAILY_DAYS);
  const period = useMemo(() => {
    const byDate = new Map(usage.daily.map((d) => [d.date, d.bytes]));
    const start = Date.parse(usage.periodStart);
    const end = Date.parse(usage.periodEnd);
    const today = usage.daily[usage.daily.length - 1]?.date ?? '';
    const rows: { date: string; cumulative: number | null }[] = [];
    let sum = 0;
    for (let at = start; at < end; at += DAY_MS) {
      const date = new Date(at).toISOString().slice(0, 10);
      sum += byDate.get(date) ?? 0;
      rows.push({ date, cumulative: date <= today ? sum : null });
    }
    return rows;
  }, [usage]);
  const bytesText = (v: number | null) => (v === null ? '' : formatBytes(v * GB, locale));

  return (
    <Box data-testid="data-usage-charts" sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
      <Box data-testid="data-usage-daily" sx={{ minWidth: 0 }}>
        <Typography variant="subtitle2">{t('dataPlans.chart.daily')}</Typography>
        <BarChart
          height={220}
          skipAnimation
          hideLegend
          margin={{ left: 8, right: 8 }}
          xAxis={[{ data: daily.map((d) => label(d.date)), scaleType: 'band', tickLabelInterval: sparse }]}
          series={[
            {
              data: daily.map((d) => gb(d.bytes)),
              label: t('dataPlans.chart.dailySeries'),
              color: theme.palette.primary.main,
              valueFormatter: bytesText,
            },
          ]}
        />
      </Box>
      <Box data-testid="data-usage-cumulative" sx={{ minWidth: 0 }}>
        <Typography variant="subtitle2">{t('dataPlans.chart.cumulative')}</Typography>
        <LineChart
          height={220}
          skipAnimation
          margin={{ left: 8, right: 8 }}
          grid={{ horizontal: true }}
          xAxis={[{ data: period.map((d) => label(d.date)), scaleType: 'point', tickLabelInterval: sparse }]}
          series={[
            {
              id: 'cumulative',
              data: period.map((d) => (d.cumulative === null ? null : gb(d.cumulative))),
              label: t('dataPlans.chart.cumulativeSeries'),
              area: true,
              showMark: false,
              connectNulls: false,
              color: theme.palette.primary.main,
              valueFormatter: bytesText,
            },
            ...(usage.quotaBytes
              ? [
                  {
                    id: 'quota',
                    data: period.map(() => gb(usage.quotaBytes!)),
                    label: t('dataPlans.chart.quotaSeries'),
                    showMark: false,
                    color: theme.palette.error.main,
                    valueFormatter: bytesText,
                  },
                ]
              : []),
          ]}
        />
      </Box>
    </Box>
  );
}
