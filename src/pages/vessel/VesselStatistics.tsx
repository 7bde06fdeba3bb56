import { lazy, Suspense } from 'react';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { keepPreviousData } from '@tanstack/react-query';
import { useTranslate } from 'ra-core';
import { LoadState } from './LoadState';
import { duration } from './StateBands';
import { useCallQuery } from '../../data/dataHooks';

const StatisticsChart = lazy(() => import('./StatisticsChart'));
export const percent = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);

/** One vessel's online time per day: a chart and a table, dates as MM-DD. */
export function VesselStatistics({ deviceId, days, utcOffset }: { deviceId: number; days: number; utcOffset: number }) {
  const t = useTranslate();
  // The previous range stays shown (under the loading bar) while the next one loads.
  const state = useCallQuery('vessel', 'getDaily', [deviceId, days, utcOffset], { placeholderData: keepPreviousData });
  const data = state.data;
  return (
    <Paper sx={{ p: 2 }} data-testid="vessel-statistics">
      <LoadState state={state} />
      {data && (
        <>
          <Suspense fallback={<LinearProgress aria-label={t('ra.page.loading')} />}>
            <StatisticsChart days={data.list} />
          </Suspense>
          <TableContainer>
            <Table size="small" data-testid="statistics-table">
              <TableHead>
                <TableRow>
                  <TableCell>{t('vessel.statistics.date')}</TableCell>
                  <TableCell align="right">{t('vessel.statistics.online')}</TableCell>
                  <TableCell align="right">{t('vessel.statistics.warn')}</TableCell>
                  <TableCell align="right">{t('vessel.statistics.availability')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {data.list.map((d) => (
                  <TableRow key={d.date}>
                    <TableCell data-testid="statistics-date">{d.label}</TableCell>
                    <TableCell align="right">{duration(d.onlineSeconds)}</TableCell>
                    <TableCell align="right">{duration(d.warnSeconds)}</TableCell>
                    <TableCell align="right">{percent(d.availability)}</TableCell>
                  </TableRow>
                ))}
                <TableRow sx={{ '& td': { fontWeight: 600 } }}>
                  <TableCell>{t('vessel.statistics.total')}</TableCell>
                  <TableCell align="right">{duration(data.onlineSeconds)}</TableCell>
                  <TableCell align="right">{duration(data.list.reduce((a, d) => a + d.warnSeconds, 0))}</TableCell>
                  <TableCell align="right">{percent(data.availability)}</TableCell>
                </TableRow>
              </TableBody>
            </Table>
          </TableContainer>
        </>
      )}
    </Paper>
  );
}
