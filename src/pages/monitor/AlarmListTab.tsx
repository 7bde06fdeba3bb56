import { useState } from 'react';
import { keepPreviousData } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import TablePagination from '@mui/material/TablePagination';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { liveRefreshMs, monitoringApi, type AlarmQuery } from '../../api/monitoringApi';
import { useCallQuery } from '../../data/dataHooks';
import { useWarnRefreshSeconds } from '../../state/preferences';
import { Level } from '../../domain/levels';
import { useClientState } from '../../state/useClientState';
import { FetchStatus } from './FetchStatus';
import { AlarmCards } from './AlarmCards';
import { AlarmTable } from './AlarmTable';
import { AlarmToolbar } from './AlarmToolbar';
import { ClearAlarmsDialog } from './ClearAlarmsDialog';
import { useAlarmActions } from './useAlarmActions';
import type { AlarmRowsProps, AlarmShow } from './alarmModel';

/** Who may clear alarms (docs/api.md: levels 1 and 2); every level that sees a device may acknowledge. */
const CLEARERS: readonly string[] = [Level.Admin, Level.Enterprise];

/**
 * The alarm list (a tab of the status monitor): active or cleared alarms with severity, device,
 * code, meaning and remedy; acknowledge or clear one or many. Refreshes by itself like the list.
 */
export function AlarmListTab() {
  const translate = useTranslate();
  const level = useClientState((s) => s.permissionLevel);
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'));
  const [show, setShow] = useState<AlarmShow>('active');
  const [severity, setSeverity] = useState('');
  const [unackedOnly, setUnackedOnly] = useState(false);
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(20);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const query: AlarmQuery = {
    pageIndex: page + 1,
    pageSize: size,
    severity: severity || undefined,
    active: show === 'all' ? undefined : show === 'active',
    acknowledged: unackedOnly ? false : undefined,
  };
  const { data, error, isFetching, refetch } = useCallQuery('monitoring', 'alarms', [query], {
    background: 'polled',
    refetchInterval: liveRefreshMs(useWarnRefreshSeconds()),
    placeholderData: keepPreviousData,
  });
  const rows = data?.list ?? [];
  const canClear = CLEARERS.includes(level ?? '');
  const filtersChanged = () => {
    setPage(0);
    setSelected(new Set());
  };
  const { busy, run, confirmClear, setConfirmClear } = useAlarmActions(() => setSelected(new Set()));

  const toggle = (id: number) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const ids = [...selected];
  const ackable = rows.filter((r) => selected.has(r.id) && !r.ackedAt).map((r) => r.id);
  const rowProps: AlarmRowsProps = {
    rows,
    selected,
    toggle,
    busy,
    canClear,
    onAcknowledge: (id) => run('acknowledge', [id]),
    onClear: (id) => setConfirmClear([id]),
  };

  return (
    <Box data-testid="alarm-list">
      <AlarmToolbar
        show={show}
        onShow={(v) => {
          setShow(v);
          filtersChanged();
        }}
        severity={severity}
        onSeverity={(v) => {
          setSeverity(v);
          filtersChanged();
        }}
        unackedOnly={unackedOnly}
        onUnackedOnly={(on) => {
          setUnackedOnly(on);
          filtersChanged();
        }}
        busy={busy}
        ackable={ackable}
        ids={ids}
        canClear={canClear}
        onAcknowledge={(chosen) => run('acknowledge', chosen)}
        onClear={setConfirmClear}
        onExport={() => monitoringApi.exportAlarms(query)}
      />
      <FetchStatus isFetching={isFetching} error={error} onRetry={() => void refetch()} />
      {narrow ? <AlarmCards {...rowProps} /> : <AlarmTable {...rowProps} show={show} setSelected={setSelected} />}
      {data && rows.length === 0 && (
        <Typography sx={{ p: 3, textAlign: 'center', color: 'text.secondary' }} data-testid="alarms-empty">
          {translate('monitor.alarms.empty')}
        </Typography>
      )}
      <TablePagination
        component="div"
        count={data?.total ?? 0}
        page={page}
        rowsPerPage={size}
        rowsPerPageOptions={[20, 50, 100]}
        onPageChange={(_, p) => {
          setPage(p);
          setSelected(new Set());
        }}
        onRowsPerPageChange={(e) => {
          setSize(Number(e.target.value));
          filtersChanged();
        }}
        labelRowsPerPage={translate('ra.navigation.page_rows_per_page')}
        labelDisplayedRows={({ from, to, count }) =>
          translate('ra.navigation.page_range_info', { offsetBegin: from, offsetEnd: to, total: count })
        }
      />
      <ClearAlarmsDialog
        ids={confirmClear}
        busy={busy}
        onClose={() => setConfirmClear(null)}
        onConfirm={(chosen) => run('clear', chosen)}
      />
    </Box>
  );
}
