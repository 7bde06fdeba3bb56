import { useEffect, useState } from 'react';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import TextField from '@mui/material/TextField';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import LockIcon from '@mui/icons-material/Lock';
import { keepPreviousData } from '@tanstack/react-query';
import { useTranslate } from 'ra-core';
import { LoadState } from './LoadState';
import { duration } from './StateBands';
import { useCallQuery } from '../../data/dataHooks';
import { percent } from './VesselStatistics';
import { vesselApi } from '../../api/vesselApi';
import { ExportButton } from '../../layout/ExportButton';

type Sort = 'name' | 'onlineSeconds' | 'availability';

/** Every visible vessel's availability over the window: sortable, searchable, paged; a row opens the vessel. */
export function FleetStatistics({ days, utcOffset, onOpen }: { days: number; utcOffset: number; onOpen: (id: number) => void }) {
  const t = useTranslate();
  const [sort, setSort] = useState<Sort>('availability');
  const [order, setOrder] = useState<'asc' | 'desc'>('desc');
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(20);
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => {
      setQuery(search.trim());
      setPage(0);
    }, 300);
    return () => clearTimeout(timer);
  }, [search]);
  // The previous page stays shown (under the loading bar) while the next one loads.
  const state = useCallQuery(
    'vessel',
    'getFleet',
    [{ days, utcOffset, sort, order, pageIndex: page + 1, pageSize, search: query || undefined }],
    { placeholderData: keepPreviousData },
  );
  const sortBy = (s: Sort) => {
    if (s === sort) setOrder(order === 'asc' ? 'desc' : 'asc');
    else {
      setSort(s);
      setOrder(s === 'name' ? 'asc' : 'desc');
    }
    setPage(0);
  };
  const header = (s: Sort, label: string, align: 'left' | 'right' = 'right') => (
    <TableCell align={align} sortDirection={sort === s ? order : false}>
      <TableSortLabel active={sort === s} direction={sort === s ? order : 'asc'} onClick={() => sortBy(s)} data-testid={`sort-${s}`}>
        {label}
      </TableSortLabel>
    </TableCell>
  );
  const data = state.data;
  return (
    <Paper sx={{ p: 2 }} data-testid="fleet-statistics">
      <Stack direction="row" spacing={1} sx={{ mb: 1, alignItems: 'center', justifyContent: 'space-between' }}>
        <TextField
          size="small"
          label={t('console.action.search')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          sx={{ maxWidth: 320 }}
          fullWidth
        />
        {/* Every vessel the list selects (all pages), as it sorts them. */}
        <ExportButton
          onExport={() => vesselApi.exportFleet({ days, utcOffset, sort, order, search: query || undefined })}
          testId="fleet-export"
        />
      </Stack>
      {state.isFetching && data && <LinearProgress aria-label={t('ra.page.loading')} />}
      {!data && <LoadState state={state} />}
      {data && (
        <>
          <TableContainer>
            <Table size="small">
              <TableHead>
                <TableRow>
                  {header('name', t('deviceField.name'), 'left')}
                  <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('deviceField.deviceNum')}</TableCell>
                  {header('onlineSeconds', t('vessel.statistics.online'))}
                  {header('availability', t('vessel.statistics.availability'))}
                </TableRow>
              </TableHead>
              <TableBody>
                {data.list.map((r) => (
                  <TableRow key={r.deviceId} hover sx={{ cursor: 'pointer' }} onClick={() => onOpen(r.deviceId)} data-testid="fleet-row">
                    <TableCell>{r.name}</TableCell>
                    <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{r.deviceNum ?? '—'}</TableCell>
                    <TableCell align="right">{r.locked ? '—' : duration(r.onlineSeconds ?? 0)}</TableCell>
                    <TableCell align="right">
                      {r.locked ? (
                        <Chip size="small" icon={<LockIcon />} label={t('vessel.statistics.locked')} />
                      ) : (
                        <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
                          <LinearProgress
                            aria-label={`${r.name}: ${t('vessel.statistics.availability')}`}
                            variant="determinate"
                            value={(r.availability ?? 0) * 100}
                            sx={{ width: 60, display: { xs: 'none', sm: 'block' } }}
                          />
                          {percent(r.availability)}
                        </span>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
                {data.list.length === 0 && (
                  <TableRow>
                    <TableCell colSpan={4}>
                      <Typography variant="body2" color="text.secondary">
                        {t('vessel.statistics.empty')}
                      </Typography>
                    </TableCell>
                  </TableRow>
                )}
              </TableBody>
            </Table>
          </TableContainer>
          <TablePagination
            component="div"
            count={data.total}
            page={page}
            rowsPerPage={pageSize}
            rowsPerPageOptions={[10, 20, 50, 100]}
            onPageChange={(_, p) => setPage(p)}
            onRowsPerPageChange={(e) => {
              setPageSize(Number(e.target.value));
              setPage(0);
            }}
          />
        </>
      )}
    </Paper>
  );
}
