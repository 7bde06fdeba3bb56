import { useMemo, useState } from 'react';
import { keepPreviousData } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import TablePagination from '@mui/material/TablePagination';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { liveRefreshMs } from '../../api/monitoringApi';
import { useCallQuery } from '../../data/dataHooks';
import { useWarnRefreshSeconds } from '../../state/preferences';
import { useClientState } from '../../state/useClientState';
import { VISUALLY_HIDDEN } from '../../resources/generic/PageHeading';
import { DeviceCard } from './DeviceCard';
import { FetchStatus } from './FetchStatus';
import { LiveFilters } from './LiveFilters';
import { LiveStatusTable } from './LiveStatusTable';
import { StateCountChips } from './StateCountChips';
import { PAGE_SIZES, readFilters, toLiveQuery, writeFilters, type MonitorFilters } from './monitorFilters';

/**
 * The status monitor's device list: counts per state (click to filter), filters, one row per
 * visible vessel, paged on the server, refreshed by itself; filters and page live in the URL and
 * the previous page stays on screen while the next answer loads, so scroll and selection hold.
 */
export function LiveStatusTab() {
  const translate = useTranslate();
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  const level = useClientState((s) => s.permissionLevel);
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'));
  const [selected, setSelected] = useState<number | null>(null);
  const refreshMs = liveRefreshMs(useWarnRefreshSeconds());
  const query = useMemo(() => toLiveQuery(filters), [params.toString()]); // eslint-disable-line react-hooks/exhaustive-deps
  const { data, error, isFetching, refetch } = useCallQuery('monitoring', 'livePage', [query], {
    background: 'polled',
    refetchInterval: refreshMs,
    refetchIntervalInBackground: false,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

  const change = (next: Partial<MonitorFilters>) => setParams(writeFilters(params, next), { replace: true });
  // Clearing the filters keeps only the tab.
  const clear = () => setParams(new URLSearchParams(params.get('tab') ? { tab: params.get('tab')! } : {}), { replace: true });
  const rows = data?.list ?? [];

  return (
    <Box data-testid="status-monitor">
      <StateCountChips counts={data?.counts} state={filters.state} refreshMs={refreshMs} change={change} />
      <LiveFilters filters={filters} level={level} change={change} onClear={clear} />

      <FetchStatus isFetching={isFetching} error={error} onRetry={() => void refetch()} />

      {narrow ? (
        <Stack sx={{ gap: 1 }} data-testid="monitor-cards">
          {rows.map((row) => (
            <DeviceCard key={row.id} row={row} selected={selected === row.id} onSelect={() => setSelected(row.id)} />
          ))}
        </Stack>
      ) : (
        <LiveStatusTable rows={rows} filters={filters} change={change} selected={selected} onSelect={setSelected} />
      )}
      {data && rows.length === 0 && (
        <Typography sx={{ p: 3, textAlign: 'center', color: 'text.secondary' }} data-testid="monitor-empty">
          {translate('monitor.empty')}
        </Typography>
      )}
      <TablePagination
        component="div"
        count={data?.total ?? 0}
        page={Math.max(0, filters.page - 1)}
        rowsPerPage={filters.size}
        rowsPerPageOptions={[...PAGE_SIZES]}
        onPageChange={(_, page) => change({ page: page + 1 })}
        onRowsPerPageChange={(e) => change({ size: Number(e.target.value) })}
        // Narrow: the words are hidden from sight, not removed, so the rows-per-page select keeps its name.
        labelRowsPerPage={translate('ra.navigation.page_rows_per_page')}
        slotProps={{ selectLabel: { sx: narrow ? VISUALLY_HIDDEN : undefined } }}
        labelDisplayedRows={({ from, to, count }) =>
          translate('ra.navigation.page_range_info', { offsetBegin: from, offsetEnd: to, total: count })
        }
      />
    </Box>
  );
}
