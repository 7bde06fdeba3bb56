import { Link as RouterLink } from 'react-router-dom';
import Link from '@mui/material/Link';
import { useTranslate } from 'ra-core';
import type { Alarm } from '../../api/monitoringApi';
import { alarmNotificationsPath } from './devicePaths';

/** "Notified: 3", to the alarm's delivery log (who was told outside the console); nothing when nobody was. */
export function NotifiedLink({ alarm }: { alarm: Alarm }) {
  const translate = useTranslate();
  if (!alarm.notifiedCount) return null;
  return (
    <Link
      component={RouterLink}
      // The alarm's filter is shown above the delivery log (and can be removed there), not only applied.
      to={`${alarmNotificationsPath(alarm.id)}&displayedFilters=${encodeURIComponent(JSON.stringify({ alarmId: true }))}`}
      underline="hover"
      sx={{ display: 'block', fontSize: '0.8em' }}
      data-testid={`alarm-notified-${alarm.id}`}
    >
      {translate('monitor.alarms.notified', { count: alarm.notifiedCount })}
    </Link>
  );
}
