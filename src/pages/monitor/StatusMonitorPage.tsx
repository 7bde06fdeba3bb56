import { useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { AlarmListTab } from './AlarmListTab';
import { LiveStatusTab } from './LiveStatusTab';
import { PageHeading } from '../../resources/generic/PageHeading';

/**
 * /device/deviceManageData: the status monitor. Two tabs: the live device list (default) and the
 * alarm list (`?tab=alarms`). The bell opens it with `?state=warn`. A one-column grid with a
 * zero minimum, so a wide table scrolls inside its container instead of widening the layout.
 */
export default function StatusMonitorPage() {
  const translate = useTranslate();
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'alarms' ? 'alarms' : 'status';
  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)' }}>
      <PageHeading titleKey="menu.deviceManageData" />
      <Tabs
        value={tab}
        onChange={(_, value: string) => setParams(value === 'alarms' ? { tab: 'alarms' } : {}, { replace: false })}
        sx={{ mb: 1.5, borderBottom: 1, borderColor: 'divider', minHeight: 40 }}
      >
        <Tab value="status" label={translate('monitor.tabs.status')} data-testid="monitor-tab-status" sx={{ minHeight: 40 }} />
        <Tab value="alarms" label={translate('monitor.tabs.alarms')} data-testid="monitor-tab-alarms" sx={{ minHeight: 40 }} />
      </Tabs>
      {tab === 'alarms' ? <AlarmListTab /> : <LiveStatusTab />}
    </Box>
  );
}
