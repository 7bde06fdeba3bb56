import { useState } from 'react';
import { keepPreviousData } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { liveRefreshMs, type Alarm, type AlarmQuery } from '../../api/monitoringApi';
import { useCallMutation, useCallQuery, type Invalidates } from '../../data/dataHooks';
import { useWarnRefreshSeconds } from '../../state/preferences';
import { FAULT_SEVERITIES } from '../../domain/faultCodes';
import { Level } from '../../domain/levels';
import { useDateFormatter } from '../../format/useDateFormatter';
import { useClientState } from '../../state/useClientState';
import { deviceDetailPath } from './devicePaths';
import { FetchStatus } from './FetchStatus';
import { useAgo } from './liveFormat';

type Show = 'active' | 'cleared' | 'all';
const SEVERITY_COLOUR = { critical: 'error', major: 'warning', minor: 'info' } as const;
/** Who may clear alarms (docs/api.md: levels 1 and 2); every level that sees a device may acknowledge. */
const CLEARERS: readonly string[] = [Level.Admin, Level.Enterprise];
/** What acknowledging or clearing an alarm makes stale. */
const ALARMS_CHANGE: Invalidates = { calls: ['monitoring', 'vessel'] };

/**
 * The alarm list (a tab of the status monitor): active or cleared alarms with severity, device,
 * code, meaning and remedy; acknowledge or clear one or many. Refreshes by itself like the list.
 */
export function AlarmListTab() {
  const translate = useTranslate();
  const notify = useNotify();
  const format = useDateFormatter();
  const ago = useAgo();
  const level = useClientState((s) => s.permissionLevel);
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'));
  const [show, setShow] = useState<Show>('active');
  const [severity, setSeverity] = useState('');
  const [unackedOnly, setUnackedOnly] = useState(false);
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(20);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [confirmClear, setConfirmClear] = useState<number[] | null>(null);
  const query: AlarmQuery = {
    pageIndex: page + 1, pageSize: size, severity: severity || undefined,
    active: show === 'all' ? undefined : show === 'active', acknowledged: unackedOnly ? false : undefined,
  };
  const { data, error, isFetching, refetch } = useCallQuery('monitoring', 'alarms', [query], {
    background: 'polled',
    refetchInterval: liveRefreshMs(useWarnRefreshSeconds()),
    placeholderData: keepPreviousData,
  });
  const rows = data?.list ?? [];
  const canClear = CLEARERS.includes(level ?? '');
  const filtersChanged = () => { setPage(0); setSelected(new Set()); };

  // Acknowledging or clearing refreshes every monitoring call (this list, the monitor, the dashboard,
  // the bell) and the vessel pages, which show a vessel's faults.
  const acknowledge = useCallMutation('monitoring', 'acknowledge', ALARMS_CHANGE);
  const clear = useCallMutation('monitoring', 'clear', ALARMS_CHANGE);
  const busy = acknowledge.isPending || clear.isPending;
  const run = (action: 'acknowledge' | 'clear', ids: number[]) => {
    // A failure: the error catalogue has shown the message.
    (action === 'acknowledge' ? acknowledge : clear).mutate([ids], {
      onSuccess: (result) => {
        notify(translate('monitor.alarms.changed', { smart_count: result.changed }), { type: 'success' });
        setSelected(new Set());
      },
      onSettled: () => setConfirmClear(null),
    });
  };

  const toggle = (id: number) => setSelected((s) => {
    const next = new Set(s);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    return next;
  });
  const selectable = rows.filter((r) => r.active);
  const allChecked = selectable.length > 0 && selectable.every((r) => selected.has(r.id));
  const ids = [...selected];
  const ackable = rows.filter((r) => selected.has(r.id) && !r.ackedAt).map((r) => r.id);

  return (
    <Box data-testid="alarm-list">
      <Stack direction="row" sx={{ gap: 1, mb: 1.5, alignItems: 'center', flexWrap: 'wrap' }}>
        <ToggleButtonGroup size="small" exclusive value={show} onChange={(_, v: Show | null) => { if (v) { setShow(v); filtersChanged(); } }}>
          {(['active', 'cleared', 'all'] as const).map((v) => <ToggleButton key={v} value={v} data-testid={`alarms-show-${v}`}>{translate(`monitor.alarms.${v}`)}</ToggleButton>)}
        </ToggleButtonGroup>
        <TextField select size="small" label={translate('monitor.alarms.severity')} value={severity} onChange={(e) => { setSeverity(e.target.value); filtersChanged(); }} sx={{ minWidth: 140 }}>
          <MenuItem value="">{translate('monitor.filter.any')}</MenuItem>
          {FAULT_SEVERITIES.map((s) => <MenuItem key={s} value={s}>{translate(`monitor.alarms.severities.${s}`)}</MenuItem>)}
        </TextField>
        <FormControlLabel control={<Switch size="small" checked={unackedOnly} onChange={(e) => { setUnackedOnly(e.target.checked); filtersChanged(); }} />}
          label={translate('monitor.alarms.unacknowledgedOnly')} />
        <Box sx={{ flex: 1, display: { xs: 'none', md: 'block' } }} />
        <Button size="small" variant="contained" disabled={busy || ackable.length === 0} onClick={() => run('acknowledge', ackable)} data-testid="alarms-ack-selected">
          {translate('monitor.alarms.acknowledgeSelected', { smart_count: ackable.length })}
        </Button>
        {canClear && (
          <Button size="small" variant="outlined" color="error" disabled={busy || ids.length === 0} onClick={() => setConfirmClear(ids)} data-testid="alarms-clear-selected">
            {translate('monitor.alarms.clearSelected', { smart_count: ids.length })}
          </Button>
        )}
      </Stack>
      <FetchStatus isFetching={isFetching} error={error} onRetry={() => void refetch()} />
      {narrow ? (
        <Stack sx={{ gap: 1 }} data-testid="alarm-cards">
          {rows.map((a) => (
            <Card key={a.id} variant="outlined" sx={{ p: 1.25 }} data-testid={`alarm-row-${a.id}`} data-device={a.deviceId} data-code={a.code}>
              <Stack direction="row" sx={{ alignItems: 'center', gap: 1 }}>
                <Checkbox size="small" checked={selected.has(a.id)} disabled={!a.active} onChange={() => toggle(a.id)} sx={{ p: 0.5 }} slotProps={{ input: { 'aria-label': `${a.deviceName} ${a.code}` } }} />
                <Chip size="small" color={SEVERITY_COLOUR[a.severity] ?? 'default'} label={`${a.code} · ${translate(`monitor.alarms.severities.${a.severity}`)}`} />
                <Link component={RouterLink} to={deviceDetailPath(a.deviceId)} underline="hover" sx={{ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', fontWeight: 500 }}>{a.deviceName}</Link>
              </Stack>
              <Box sx={{ mt: 0.75, fontWeight: 500, fontSize: 14 }}>{a.meaning} <Box component="span" sx={{ color: 'text.secondary', fontWeight: 400 }}>· {translate(`monitor.alarms.units.${a.unit}`)}</Box></Box>
              <Typography variant="body2" color="text.secondary" sx={{ fontSize: 12 }}>{a.remedy}</Typography>
              <Box sx={{ mt: 0.5, fontSize: 12, color: 'text.secondary' }}>
                {translate('monitor.alarms.column.raisedAt')}: {format(a.raisedAt)} ({ago(a.raisedAt)})
                {a.clearedAt && <> · {translate('monitor.alarms.column.clearedAt')}: {format(a.clearedAt)}</>}
              </Box>
              <Stack direction="row" sx={{ mt: 0.5, alignItems: 'center', gap: 1, fontSize: 12 }}>
                <Box sx={{ flex: 1, color: a.ackedAt ? 'text.secondary' : 'warning.dark' }}>
                  {a.ackedAt ? translate('monitor.alarms.ackedBy', { name: a.ackedByName ?? '', time: format(a.ackedAt) }) : translate('monitor.alarms.notAcked')}
                </Box>
                {a.active && !a.ackedAt && <Button size="small" disabled={busy} onClick={() => run('acknowledge', [a.id])} data-testid={`alarm-ack-${a.id}`}>{translate('monitor.alarms.acknowledge')}</Button>}
                {a.active && canClear && <Button size="small" color="error" disabled={busy} onClick={() => setConfirmClear([a.id])} data-testid={`alarm-clear-${a.id}`}>{translate('monitor.alarms.clear')}</Button>}
              </Stack>
            </Card>
          ))}
        </Stack>
      ) : (
      <TableContainer component={Card} variant="outlined">
        <Table size="small" data-testid="alarm-table" sx={{ '& th': { whiteSpace: 'nowrap' } }}>
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox">
                <Checkbox size="small" checked={allChecked} indeterminate={!allChecked && selectable.some((r) => selected.has(r.id))} disabled={!selectable.length}
                  onChange={() => setSelected(allChecked ? new Set() : new Set(selectable.map((r) => r.id)))} slotProps={{ input: { 'aria-label': translate('ra.action.select_all') } }} />
              </TableCell>
              <TableCell>{translate('monitor.alarms.column.severity')}</TableCell>
              <TableCell>{translate('monitor.alarms.column.device')}</TableCell>
              <TableCell>{translate('monitor.alarms.column.code')}</TableCell>
              <TableCell sx={{ minWidth: 240 }}>{translate('monitor.alarms.column.meaning')}</TableCell>
              <TableCell>{translate('monitor.alarms.column.raisedAt')}</TableCell>
              <TableCell>{translate(show === 'cleared' ? 'monitor.alarms.column.clearedAt' : 'monitor.alarms.column.lastSeenAt')}</TableCell>
              <TableCell>{translate('monitor.alarms.column.acked')}</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((a: Alarm) => (
              <TableRow key={a.id} hover selected={selected.has(a.id)} data-testid={`alarm-row-${a.id}`} data-device={a.deviceId} data-code={a.code}>
                <TableCell padding="checkbox">
                  <Checkbox size="small" checked={selected.has(a.id)} disabled={!a.active} onChange={() => toggle(a.id)} slotProps={{ input: { 'aria-label': `${a.deviceName} ${a.code}` } }} />
                </TableCell>
                <TableCell>
                  <Chip size="small" color={SEVERITY_COLOUR[a.severity] ?? 'default'} label={translate(`monitor.alarms.severities.${a.severity}`)} />
                  {a.active && <Box sx={{ fontSize: 11, color: 'error.main', mt: 0.25 }}>{translate('monitor.alarms.activeBadge')}</Box>}
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  <Link component={RouterLink} to={deviceDetailPath(a.deviceId)} underline="hover">{a.deviceName}</Link>
                  <Box sx={{ color: 'text.secondary', fontSize: '0.8em' }}>{a.deviceNum}</Box>
                </TableCell>
                <TableCell sx={{ fontFamily: 'monospace', fontWeight: 600 }}>{a.code}</TableCell>
                <TableCell>
                  <Box sx={{ fontWeight: 500 }}>{a.meaning} <Box component="span" sx={{ color: 'text.secondary', fontWeight: 400 }}>· {translate(`monitor.alarms.units.${a.unit}`)}</Box></Box>
                  <Typography variant="body2" color="text.secondary" sx={{ fontSize: 12 }}>{a.remedy}</Typography>
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{format(a.raisedAt)}<Box sx={{ color: 'text.secondary', fontSize: '0.8em' }}>{ago(a.raisedAt)}</Box></TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{format(show === 'cleared' ? a.clearedAt : a.lastSeenAt)}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {a.ackedAt ? translate('monitor.alarms.ackedBy', { name: a.ackedByName ?? '', time: format(a.ackedAt) })
                    : <Box component="span" sx={{ color: 'warning.dark' }}>{translate('monitor.alarms.notAcked')}</Box>}
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {a.active && !a.ackedAt && (
                    <Button size="small" disabled={busy} onClick={() => run('acknowledge', [a.id])} data-testid={`alarm-ack-${a.id}`}>{translate('monitor.alarms.acknowledge')}</Button>
                  )}
                  {a.active && canClear && (
                    <Button size="small" color="error" disabled={busy} onClick={() => setConfirmClear([a.id])} data-testid={`alarm-clear-${a.id}`}>{translate('monitor.alarms.clear')}</Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      )}
      {data && rows.length === 0 && <Typography sx={{ p: 3, textAlign: 'center', color: 'text.secondary' }} data-testid="alarms-empty">{translate('monitor.alarms.empty')}</Typography>}
      <TablePagination component="div" count={data?.total ?? 0} page={page} rowsPerPage={size} rowsPerPageOptions={[20, 50, 100]}
        onPageChange={(_, p) => { setPage(p); setSelected(new Set()); }} onRowsPerPageChange={(e) => { setSize(Number(e.target.value)); filtersChanged(); }}
        labelRowsPerPage={translate('ra.navigation.page_rows_per_page')}
        labelDisplayedRows={({ from, to, count }) => translate('ra.navigation.page_range_info', { offsetBegin: from, offsetEnd: to, total: count })} />
      <Dialog open={confirmClear !== null} onClose={() => setConfirmClear(null)}>
        <DialogTitle>{translate('monitor.alarms.clearTitle')}</DialogTitle>
        <DialogContent>{translate('monitor.alarms.clearConfirm', { smart_count: confirmClear?.length ?? 0 })}</DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirmClear(null)}>{translate('console.dialog.cancel')}</Button>
          <Button color="error" variant="contained" disabled={busy} onClick={() => confirmClear && run('clear', confirmClear)} data-testid="alarms-clear-confirm">
            {translate('monitor.alarms.clear')}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
