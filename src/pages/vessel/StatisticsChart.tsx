import { BarChart } from '@mui/x-charts/BarChart';
import type { DayStatistics } from '../../api/vesselApi';
import { useTranslate } from 'ra-core';
import { STATE_COLORS } from './stateColors';

const hours = (s: number) => Math.round((s / 3600) * 10) / 10;

/** Online hours per day, labelled MM-DD (lazy-loaded with @mui/x-charts). */
export default function StatisticsChart({ days }: { days: DayStatistics[] }) {
  const t = useTranslate();
  return (
    <div data-testid="statistics-chart">
      <BarChart
        height={260}
        skipAnimation
        hideLegend
        margin={{ left: 8, right: 8 }}
        xAxis={[{ data: days.map((d) => d.label), scaleType: 'band' }]}
        yAxis={[{ min: 0, max: 24, label: t('vessel.statistics.chartLabel') }]}
        series={[
          {
            data: days.map((d) => hours(d.onlineSeconds - d.warnSeconds)),
            stack: 'online',
            label: t('deviceState.online'),
            color: STATE_COLORS.online,
            valueFormatter: (v) => t('vessel.statistics.hours', { value: v ?? 0 }),
          },
          {
            data: days.map((d) => hours(d.warnSeconds)),
            stack: 'online',
            label: t('deviceState.warn'),
            color: STATE_COLORS.warn,
            valueFormatter: (v) => t('vessel.statistics.hours', { value: v ?? 0 }),
          },
        ]}
      />
    </div>
  );
}
