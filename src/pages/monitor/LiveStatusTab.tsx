import { useEffect, useMemo, useState } from 'react';
import { keepPreviousData } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import SearchIcon from '@mui/icons-material/Search';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import TimelineIcon from '@mui/icons-material/Timeline';
import { useOwnerTree } from '../../resources/devices/useOwnerTree';
import { liveRefreshMs, type DeviceLiveState, type StateCounts } from '../../api/monitoringApi';
import { useCallQuery } from '../../data/dataHooks';
import { useWarnRefreshSeconds } from '../../state/preferences';
import { DEVICE_KINDS, DEVICE_KIND_KEYS } from '../../domain/deviceKinds';
import { Level } from '../../domain/levels';
import { DeviceStatusIcon } from '../../resources/devices/DeviceStatusIcon';
import { useClientState } from '../../state/useClientState';
import { STATE_COLOURS } from '../../map/vesselStyle';
import { VISUALLY_HIDDEN } from '../../resources/generic/PageHeading';
import { FetchStatus } from './FetchStatus';
import { FaultChips, formatHeading, formatPosition, LastReport } from './liveFormat';
import { STICKY_ACTIONS_CELL_SX } from '../../resources/generic/listStyles';
import { PAGE_SIZES, readFilters, STATE_NAMES, toLiveQuery, writeFilters, type MonitorFilters, type MonitorSort, type StateName } from './monitorFilters';

const STATE_COLOUR_OF: Record<StateName, string> = { online: STATE_COLOURS[1]!, offline: STATE_COLOURS[0]!, warn: STATE_COLOURS[2]! };

export const deviceDetailPath = (id: number) => `/device/deviceDataDetail?id=${id}`;
export const deviceTrackPath = (id: number) => `/device/map?id=${id}`;

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
  const { owners } = useOwnerTree(level === Level.Admin || level === Level.Enterprise);

  const change = (next: Partial<MonitorFilters>) => setParams(writeFilters(params, next), { replace: true });
  const [search, setSearch] = useState(filters.q);
  useEffect(() => setSearch(filters.q), [filters.q]);
  useEffect(() => {
    if (search === filters.q) return undefined;
    const timer = setTimeout(() => change({ q: search }), 350);
    return () => clearTimeout(timer);
  }, [search]); // eslint-disable-line react-hooks/exhaustive-deps

  const subOwners = owners.filter((o) => !filters.owner || o.id === filters.owner).flatMap((o) => o.children);
  const counts: StateCounts | undefined = data?.counts;
  const rows = data?.list ?? [];

  const sortLabel = (key: MonitorSort, label: string) => (
    <TableSortLabel active={filters.sort === key} direction={filters.sort === key ? filters.order : 'asc'}
      onClick={() => change({ sort: key, order: filters.sort === key && filters.order === 'asc' ? 'desc' : 'asc' })}>
      {label}
    </TableSortLabel>
  );

  return (
    <Box data-testid="status-monitor">
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mb: 1.5 }} data-testid="state-counts">
        <CountChip label={translate('monitor.state.all')} count={counts?.total} active={!filters.state} colour="#065aa1" onClick={() => change({ state: null })} testId="count-all" />
        {STATE_NAMES.map((name) => (
          <CountChip key={name} label={translate(`monitor.state.${name}`)} count={counts?.[name]} active={filters.state === name}
            colour={STATE_COLOUR_OF[name]} onClick={() => change({ state: filters.state === name ? null : name })} testId={`count-${name}`} />
        ))}
        <Box sx={{ flex: 1 }} />
        <Typography variant="caption" color="text.secondary" sx={{ alignSelf: 'center' }}>
          {translate('monitor.autoRefresh', { seconds: refreshMs / 1000 })}
        </Typography>
      </Stack>

      <Stack direction="row" sx={{ gap: 1, mb: 1.5, flexWrap: 'wrap', '& > .MuiTextField-root': { flex: { xs: '1 1 140px', sm: '0 0 auto' } } }}>
        <TextField size="small" value={search} onChange={(e) => setSearch(e.target.value)} placeholder={translate('monitor.filter.search')}
          slotProps={{ htmlInput: { 'data-testid': 'monitor-search', maxLength: 64 }, input: { startAdornment: <InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment> } }}
          sx={{ minWidth: { sm: 260 }, flexBasis: { xs: '100% !important', sm: 'auto' } }} />
        <TextField select size="small" label={translate('monitor.filter.kind')} value={filters.kind ?? ''} onChange={(e) => change({ kind: e.target.value || null })}
          sx={{ minWidth: 140 }} slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'filter-kind' } as object } }}>
          <MenuItem value="">{translate('monitor.filter.any')}</MenuItem>
          {DEVICE_KINDS.map((k) => <MenuItem key={k} value={k}>{translate(DEVICE_KIND_KEYS[k])}</MenuItem>)}
        </TextField>
        {level === Level.Admin && (
          <TextField select size="small" label={translate('monitor.filter.owner')} value={filters.owner ?? ''} onChange={(e) => change({ owner: Number(e.target.value) || null, sub: null })} sx={{ minWidth: 160 }}>
            <MenuItem value="">{translate('monitor.filter.any')}</MenuItem>
            {owners.map((o) => <MenuItem key={o.id} value={o.id}>{o.name}</MenuItem>)}
          </TextField>
        )}
        {(level === Level.Admin || level === Level.Enterprise) && (
          <TextField select size="small" label={translate('monitor.filter.subOwner')} value={filters.sub ?? ''} onChange={(e) => change({ sub: Number(e.target.value) || null })} sx={{ minWidth: 160 }}>
            <MenuItem value="">{translate('monitor.filter.any')}</MenuItem>
            {subOwners.map((o) => <MenuItem key={o.id} value={o.id}>{o.name}</MenuItem>)}
          </TextField>
        )}
        {(filters.state || filters.kind || filters.owner || filters.sub || filters.q) && (
          <Button size="small" onClick={() => { setSearch(''); setParams(new URLSearchParams(params.get('tab') ? { tab: params.get('tab')! } : {}), { replace: true }); }}>
            {translate('monitor.filter.clear')}
          </Button>
        )}
      </Stack>

      <FetchStatus isFetching={isFetching} error={error} onRetry={() => void refetch()} />

      {narrow ? (
        <Stack sx={{ gap: 1 }} data-testid="monitor-cards">
          {rows.map((row) => <DeviceCard key={row.id} row={row} selected={selected === row.id} onSelect={() => setSelected(row.id)} />)}
        </Stack>
      ) : (
        <TableContainer component={Card} variant="outlined" sx={{ maxWidth: '100%' }}>
          {/* Fits its card at any width in both languages: long text wraps (the fault chips too, never
              clipped), and the row links stay in view in a sticky last column. */}
          <Table size="small" data-testid="monitor-table" sx={{ '& th': { whiteSpace: 'nowrap' }, '& td': { overflowWrap: 'break-word' } }}>
            <TableHead>
              <TableRow>
                <TableCell>{sortLabel('status', translate('monitor.column.state'))}</TableCell>
                <TableCell>{sortLabel('name', translate('monitor.column.name'))}</TableCell>
                <TableCell>{sortLabel('ownerName', translate('monitor.column.owner'))}</TableCell>
                <TableCell>{translate('monitor.column.position')}</TableCell>
                <TableCell>{sortLabel('speed', translate('monitor.column.speedHeading'))}</TableCell>
                <TableCell>{sortLabel('reportedAt', translate('monitor.column.lastReport'))}</TableCell>
                <TableCell>{translate('monitor.column.satelliteSignal')}</TableCell>
                <TableCell>{translate('monitor.column.faults')}</TableCell>
                <TableCell sx={{ px: 0.5, ...STICKY_ACTIONS_CELL_SX, bgcolor: (t: Theme) => t.console.tableHeader }} />
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row.id} hover selected={selected === row.id} onClick={() => setSelected(row.id)} data-testid={`monitor-row-${row.id}`} data-status={row.status}>
                  <TableCell><DeviceStatusIcon kind={row.deviceKind} status={row.status} size={26} /></TableCell>
                  <TableCell sx={{ fontWeight: 500, minWidth: 120 }}>
                    <Box>{row.name}</Box>
                    <Box sx={{ color: 'text.secondary', fontSize: '0.8em' }}>{row.deviceNum}</Box>
                  </TableCell>
                  <TableCell>{row.ownerName}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatPosition(row.lat, row.lon).split(' ').map((part) => <Box key={part}>{part}</Box>)}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{row.speed === null ? '' : <><Box>{translate('monitor.knots', { value: row.speed.toFixed(1) })}</Box><Box>{formatHeading(row.heading)}</Box></>}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}><LastReport at={row.reportedAt} /></TableCell>
                  <TableCell sx={{ minWidth: 110 }}>
                    <Box>{row.satelliteName ? `${row.satelliteName} (${row.satelliteLongitude}°)` : ''}</Box>
                    <Box sx={{ color: 'text.secondary', fontSize: '0.85em' }}>{row.signalLevel === null ? '' : translate('monitor.signalValue', { level: Math.round(row.signalLevel), snr: row.snr?.toFixed(1) })}</Box>
                  </TableCell>
                  <TableCell sx={{ minWidth: 180, '& .MuiChip-root': { maxWidth: '100%', height: 'auto', minHeight: 24 }, '& .MuiChip-label': { whiteSpace: 'normal', py: 0.25 } }}><FaultChips faults={row.faults} modemLock={row.modemLock} status={row.status} /></TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap', px: 0.5, ...STICKY_ACTIONS_CELL_SX, ...(selected === row.id ? { bgcolor: 'action.selected' } : {}) }}><RowLinks id={row.id} /></TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {data && rows.length === 0 && <Typography sx={{ p: 3, textAlign: 'center', color: 'text.secondary' }} data-testid="monitor-empty">{translate('monitor.empty')}</Typography>}
      <TablePagination component="div" count={data?.total ?? 0} page={Math.max(0, filters.page - 1)} rowsPerPage={filters.size}
        rowsPerPageOptions={[...PAGE_SIZES]} onPageChange={(_, page) => change({ page: page + 1 })}
        onRowsPerPageChange={(e) => change({ size: Number(e.target.value) })}
        // Narrow: the words are hidden from sight, not removed, so the rows-per-page select keeps its name.
        labelRowsPerPage={translate('ra.navigation.page_rows_per_page')}
        slotProps={{ selectLabel: { sx: narrow ? VISUALLY_HIDDEN : undefined } }}
        labelDisplayedRows={({ from, to, count }) => translate('ra.navigation.page_range_info', { offsetBegin: from, offsetEnd: to, total: count })} />
    </Box>
  );
}

/**
 * A state's count as a toggle. The state colour is a dot and the border (the active one also a
 * tint); the text stays the theme's dark text, since the state colours on white or white on them
 * fall under WCAG AA 4.5:1.
 */
function CountChip({ label, count, active, colour, onClick, testId }: { label: string; count: number | undefined; active: boolean; colour: string; onClick: () => void; testId: string }) {
  const tint = `${colour}24`;
  return (
    <Chip clickable onClick={onClick} data-testid={testId} aria-pressed={active}
      label={(
        <Box component="span" sx={{ display: 'inline-flex', gap: 0.75, alignItems: 'center' }}>
          <Box component="span" aria-hidden sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: colour, flexShrink: 0 }} />
          <span>{label}</span><b>{count ?? '–'}</b>
        </Box>
      )}
      variant="outlined"
      sx={{ borderColor: colour, borderWidth: active ? 2 : 1, color: 'text.primary', bgcolor: active ? tint : 'background.paper', fontSize: 14, height: 34, px: active ? 0.375 : 0.5,
        '&:hover': { bgcolor: active ? tint : `${colour}12` }, '&.MuiChip-clickable:hover': { bgcolor: active ? tint : `${colour}12` } }} />
  );
}

function RowLinks({ id }: { id: number }) {
  const translate = useTranslate();
  return (
    <>
      <Tooltip title={translate('monitor.detail')}>
        <IconButton size="small" component={RouterLink} to={deviceDetailPath(id)} aria-label={translate('monitor.detail')} data-testid={`detail-${id}`} onClick={(e) => e.stopPropagation()}>
          <InfoOutlinedIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title={translate('monitor.track')}>
        <IconButton size="small" component={RouterLink} to={deviceTrackPath(id)} aria-label={translate('monitor.track')} data-testid={`track-${id}`} onClick={(e) => e.stopPropagation()}>
          <TimelineIcon fontSize="small" />
        </IconButton>
      </Tooltip>
    </>
  );
}

/** One vessel as a card on a narrow screen. */
function DeviceCard({ row, selected, onSelect }: { row: DeviceLiveState; selected: boolean; onSelect: () => void }) {
  const translate = useTranslate();
  return (
    <Card variant="outlined" onClick={onSelect} data-testid={`monitor-row-${row.id}`} data-status={row.status}
      sx={{ p: 1.25, borderColor: selected ? 'primary.main' : undefined, borderLeft: `4px solid ${STATE_COLOURS[row.status] ?? STATE_COLOURS[0]}` }}>
      <Stack direction="row" sx={{ alignItems: 'center', gap: 1 }}>
        <DeviceStatusIcon kind={row.deviceKind} status={row.status} size={26} />
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography sx={{ fontWeight: 600, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{row.name}</Typography>
          <Typography variant="caption" color="text.secondary">{[row.deviceNum, row.ownerName].filter(Boolean).join(' · ')}</Typography>
        </Box>
        <RowLinks id={row.id} />
      </Stack>
      <Box sx={{ mt: 0.5, fontSize: 13, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 1.5, rowGap: 0.25 }}>
        <Box component="span" sx={{ color: 'text.secondary' }}>{translate('monitor.column.lastReport')}</Box>
        <LastReport at={row.reportedAt} compact />
        {row.lat !== null && (
          <>
            <Box component="span" sx={{ color: 'text.secondary' }}>{translate('monitor.column.position')}</Box>
            <span>{formatPosition(row.lat, row.lon)} · {row.speed === null ? '' : translate('monitor.knots', { value: row.speed.toFixed(1) })} · {formatHeading(row.heading)}</span>
          </>
        )}
        {row.satelliteName && (
          <>
            <Box component="span" sx={{ color: 'text.secondary' }}>{translate('monitor.column.satellite')}</Box>
            <span>{row.satelliteName} · {translate('monitor.signalValue', { level: Math.round(row.signalLevel ?? 0), snr: row.snr?.toFixed(1) })}</span>
          </>
        )}
      </Box>
      {(row.faults.length > 0 || (row.status !== 0 && row.modemLock === false)) && (
        <Box sx={{ mt: 0.75 }}><FaultChips faults={row.faults} modemLock={row.modemLock} status={row.status} /></Box>
      )}
    </Card>
  );
}
