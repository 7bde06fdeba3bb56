import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'ra-core';
import { useClientState } from '../state/useClientState';
import { FleetMap } from './dashboard/FleetMap';
import { KindTable, LatestAlarms, Panel, StateCards, TopFaults } from './dashboard/DashboardPanels';
import { LinkPanel } from './dashboard/LinkPanel';

/**
 * The homepage (/dashboard): counts by state and by kind, the live fleet map, the latest alarms
 * and the faults seen most this week; every part refreshes by itself.
 */
export default function Dashboard() {
  const t = useTranslate();
  const name = useClientState((s) => s.nickName || s.name || '');
  return (
    <Box data-testid="dashboard" sx={{ p: { xs: 1, sm: 2 }, display: 'flex', flexDirection: 'column', gap: { xs: 1, sm: 2 } }}>
      <Typography variant="h6" component="h1" sx={{ fontWeight: 600 }}>
        {t('console.page.welcome', { name })}
      </Typography>
      <StateCards />
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 2fr) minmax(0, 1fr)' },
          alignItems: 'start',
          gap: { xs: 1, sm: 2 },
        }}
      >
        <Panel
          title={t('monitor.dashboard.map')}
          testId="dashboard-map"
          action={
            <Typography variant="caption" color="text.secondary" sx={{ display: { xs: 'none', sm: 'block' } }}>
              {t('monitor.dashboard.mapHint')}
            </Typography>
          }
        >
          <FleetMap height="clamp(300px, 52vh, 560px)" />
        </Panel>
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: { xs: 1, sm: 2 } }}>
          <KindTable />
          <LinkPanel />
          <TopFaults />
        </Box>
      </Box>
      <LatestAlarms />
    </Box>
  );
}
