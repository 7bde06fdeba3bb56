import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { dashboardRefreshMs } from '../../api/monitoringApi';
import { useCallQuery } from '../../data/dataHooks';
import { useWarnRefreshSeconds } from '../../state/preferences';
import { useClientState } from '../../state/useClientState';
import { useAgo } from '../monitor/liveFormat';
import { deviceDetailPath } from '../monitor/devicePaths';
import { Panel } from './DashboardPanels';
import { STATUS_MONITOR_PATH } from '../../layout/Bell';

const LIMIT = 5;

/**
 * The fleet's links (docs/api.md, "Links"): vessels whose traffic goes over a backup link now and
 * the failovers since midnight in the user's zone. Shown only when some vessel reports its links.
 */
export function LinkPanel() {
  const translate = useTranslate();
  const ago = useAgo();
  const timeZone = useClientState((s) => s.timeZone);
  const { data } = useCallQuery('monitoring', 'linkSummary', [timeZone, LIMIT], {
    background: 'polled',
    refetchInterval: dashboardRefreshMs(useWarnRefreshSeconds()),
  });
  if (!data?.withLinks) return null;
  const figure = (label: string, value: number, testId: string, colour?: string, to?: string) => (
    <Box sx={{ flex: 1 }} data-testid={testId}>
      <Typography variant="body2" color="text.secondary">
        {to ? (
          <Link component={RouterLink} to={to} underline="hover" color="inherit">
            {label}
          </Link>
        ) : (
          label
        )}
      </Typography>
      <Typography sx={{ fontSize: 26, fontWeight: 600, lineHeight: 1.2, color: value ? colour : undefined }}>{value}</Typography>
    </Box>
  );
  return (
    <Panel title={translate('monitor.dashboard.links')} testId="dashboard-links">
      <Box sx={{ display: 'flex', gap: 2, mb: 1 }}>
        {figure(
          translate('monitor.dashboard.onBackup'),
          data.onBackupCount,
          'dashboard-links-backup',
          '#b26a00',
          `${STATUS_MONITOR_PATH}?link=backup`,
        )}
        {figure(translate('monitor.dashboard.failoversToday'), data.failovers, 'dashboard-links-failovers')}
      </Box>
      {data.onBackup.length === 0 && (
        <Typography color="text.secondary" variant="body2" sx={{ py: 1 }}>
          {translate('monitor.dashboard.allPrimary')}
        </Typography>
      )}
      {data.onBackup.map((v) => (
        <Box key={v.deviceId} sx={{ display: 'flex', gap: 1, alignItems: 'baseline', py: 0.5, borderTop: 1, borderColor: 'divider' }}>
          <Link
            component={RouterLink}
            to={deviceDetailPath(v.deviceId)}
            underline="hover"
            variant="body2"
            sx={{ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', fontWeight: 500 }}
          >
            {v.deviceName}
          </Link>
          <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
            {translate('monitor.dashboard.onBackupSince', { link: translate(`vessel.wan.kinds.${v.kind}`), ago: ago(v.since) })}
          </Typography>
        </Box>
      ))}
    </Panel>
  );
}
