import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { DASHBOARD_LATEST_ALARMS, DASHBOARD_TOP_FAULTS, dashboardRefreshMs } from '../../api/monitoringApi';
import { useCallQuery } from '../../data/dataHooks';
import { useWarnRefreshSeconds } from '../../state/preferences';
import { DEVICE_KINDS, DEVICE_KIND_KEYS } from '../../domain/deviceKinds';
import { STATE_COLOURS } from '../../map/vesselStyle';
import { useAgo } from '../monitor/liveFormat';

const MONITOR = '/device/deviceManageData';
const useRefetchInterval = () => dashboardRefreshMs(useWarnRefreshSeconds());
// The same queries as primeDashboard starts early (src/api/monitoringApi.ts).
const LATEST_ALARMS = DASHBOARD_LATEST_ALARMS;
const TOP_FAULT_DAYS = DASHBOARD_TOP_FAULTS.days;
const TOP_FAULT_LIMIT = DASHBOARD_TOP_FAULTS.limit;

/** Counts per state and per kind (the state cards and the kind table share the one query). */
function useStatusCounts() {
  return useCallQuery('monitoring', 'statusCounts', [], { background: 'polled', refetchInterval: useRefetchInterval() });
}
const SEVERITY_COLOUR = { critical: 'error', major: 'warning', minor: 'info' } as const;

export function Panel({ title, action, children, testId }: { title: string; action?: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <Card variant="outlined" sx={{ p: { xs: 1.5, sm: 2 }, boxSizing: 'border-box', minWidth: 0 }} data-testid={testId}>
      <Box sx={{ display: 'flex', alignItems: 'center', mb: 1, gap: 1 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, flex: 1 }}>
          {title}
        </Typography>
        {action}
      </Box>
      {children}
    </Card>
  );
}

/** Counts per state as four cards; each opens the status monitor filtered to it. */
export function StateCards() {
  const translate = useTranslate();
  const { data } = useStatusCounts();
  const cards = [
    { key: 'all', label: translate('monitor.dashboard.total'), value: data?.total, colour: '#065aa1', to: MONITOR },
    {
      key: 'online',
      label: translate('monitor.state.online'),
      value: data?.online,
      colour: STATE_COLOURS[1]!,
      to: `${MONITOR}?state=online`,
    },
    {
      key: 'offline',
      label: translate('monitor.state.offline'),
      value: data?.offline,
      colour: STATE_COLOURS[0]!,
      to: `${MONITOR}?state=offline`,
    },
    { key: 'warn', label: translate('monitor.state.warn'), value: data?.warn, colour: STATE_COLOURS[2]!, to: `${MONITOR}?state=warn` },
  ];
  return (
    <Box
      sx={{ display: 'grid', gridTemplateColumns: { xs: 'repeat(2, 1fr)', md: 'repeat(4, 1fr)' }, gap: { xs: 1, sm: 2 } }}
      data-testid="dashboard-counts"
    >
      {cards.map((c) => (
        <Card key={c.key} variant="outlined" sx={{ borderTop: `4px solid ${c.colour}` }}>
          <CardActionArea component={RouterLink} to={c.to} sx={{ p: { xs: 1.25, sm: 2 } }} data-testid={`dashboard-count-${c.key}`}>
            <Typography variant="body2" color="text.secondary">
              {c.label}
            </Typography>
            <Typography sx={{ fontSize: { xs: 24, sm: 30 }, fontWeight: 600, color: c.colour, lineHeight: 1.2 }}>
              {c.value ?? '–'}
            </Typography>
          </CardActionArea>
        </Card>
      ))}
    </Box>
  );
}

/** Counts per kind and state; kinds with no device are left out. */
export function KindTable() {
  const translate = useTranslate();
  const { data } = useStatusCounts();
  const kinds = DEVICE_KINDS.filter((k) => (data?.byKind[k]?.total ?? 0) > 0);
  return (
    <Panel title={translate('monitor.dashboard.byKind')} testId="dashboard-by-kind">
      <Table size="small" sx={{ '& td, & th': { px: 1 }, '& td:first-of-type, & th:first-of-type': { pl: 0.5 } }}>
        <TableHead>
          <TableRow>
            <TableCell />
            <TableCell align="right">{translate('monitor.state.online')}</TableCell>
            <TableCell align="right">{translate('monitor.state.offline')}</TableCell>
            <TableCell align="right">{translate('monitor.state.warn')}</TableCell>
            <TableCell align="right">{translate('monitor.state.all')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {kinds.map((k) => {
            const c = data!.byKind[k]!;
            return (
              <TableRow key={k}>
                <TableCell>
                  <Link component={RouterLink} to={`${MONITOR}?kind=${k}`} underline="hover">
                    {translate(DEVICE_KIND_KEYS[k])}
                  </Link>
                </TableCell>
                <TableCell align="right" sx={{ color: STATE_COLOURS[1] }}>
                  {c.online}
                </TableCell>
                <TableCell align="right" sx={{ color: STATE_COLOURS[0] }}>
                  {c.offline}
                </TableCell>
                <TableCell align="right" sx={{ color: STATE_COLOURS[2], fontWeight: c.warn ? 600 : undefined }}>
                  {c.warn}
                </TableCell>
                <TableCell align="right">{c.total}</TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </Panel>
  );
}

/** The newest active alarms. */
export function LatestAlarms() {
  const translate = useTranslate();
  const ago = useAgo();
  const { data } = useCallQuery('monitoring', 'alarms', [LATEST_ALARMS], { background: 'polled', refetchInterval: useRefetchInterval() });
  return (
    <Panel
      title={translate('monitor.dashboard.latestAlarms')}
      testId="dashboard-alarms"
      action={
        <Link component={RouterLink} to={`${MONITOR}?tab=alarms`} variant="body2">
          {translate('monitor.dashboard.openAlarms')}
        </Link>
      }
    >
      {data && data.list.length === 0 && (
        <Typography color="text.secondary" sx={{ py: 2 }}>
          {translate('monitor.dashboard.noAlarms')}
        </Typography>
      )}
      {data?.list.map((a) => (
        <Box key={a.id} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', py: 0.75, borderTop: 1, borderColor: 'divider' }}>
          <Chip
            size="small"
            color={SEVERITY_COLOUR[a.severity] ?? 'default'}
            label={a.code}
            sx={{ fontFamily: 'monospace', minWidth: 48 }}
          />
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography variant="body2" sx={{ fontWeight: 500, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
              {a.deviceName}
            </Typography>
            <Typography
              variant="caption"
              color="text.secondary"
              sx={{ display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
            >
              {a.meaning}
            </Typography>
          </Box>
          <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
            {ago(a.raisedAt)}
          </Typography>
        </Box>
      ))}
    </Panel>
  );
}

/** The fault codes seen most in the last 7 days, as bars. */
export function TopFaults() {
  const translate = useTranslate();
  const { data } = useCallQuery('monitoring', 'topFaults', [TOP_FAULT_DAYS, TOP_FAULT_LIMIT], {
    background: 'polled',
    refetchInterval: useRefetchInterval(),
  });
  const most = Math.max(1, ...(data ?? []).map((f) => f.alarms));
  return (
    <Panel title={translate('monitor.dashboard.topFaults')} testId="dashboard-top-faults">
      {data && data.length === 0 && (
        <Typography color="text.secondary" sx={{ py: 2 }}>
          {translate('monitor.dashboard.noFaults')}
        </Typography>
      )}
      {data?.map((f) => (
        <Box key={f.code} sx={{ py: 0.75 }}>
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'baseline' }}>
            <Typography variant="body2" sx={{ fontFamily: 'monospace', fontWeight: 600 }}>
              {f.code}
            </Typography>
            <Typography variant="body2" sx={{ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
              {f.meaning}
            </Typography>
            <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
              {translate('monitor.dashboard.alarmsCount', { smart_count: f.alarms })} ·{' '}
              {translate('monitor.dashboard.devicesCount', { smart_count: f.devices })}
            </Typography>
          </Box>
          <LinearProgress
            aria-label={`${f.code} ${f.meaning}: ${translate('monitor.dashboard.alarmsCount', { smart_count: f.alarms })}`}
            variant="determinate"
            value={(f.alarms / most) * 100}
            color={f.severity === 'critical' ? 'error' : f.severity === 'minor' ? 'info' : 'warning'}
            sx={{ height: 6, borderRadius: 3, mt: 0.5 }}
          />
        </Box>
      ))}
    </Panel>
  );
}
