import { useEffect, useState } from 'react';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import NotificationsIcon from '@mui/icons-material/Notifications';
import { useNavigate } from 'react-router-dom';
import { fetchAlarmCount } from '../api/usersApi';
import { getConfig } from '../config';
import { useT } from '../i18n/I18nContext';

/** The alarm device status of SPEC section 7. */
export const ALARM_STATUS = 2;
export const STATUS_MONITOR_PATH = '/device/deviceManageData';

/**
 * The message bell: polls the alarm query every warnRefreshSeconds; the dot is on while the
 * answer holds any device. A click clears the dot and opens the status monitor.
 */
export function Bell() {
  const { t } = useT();
  const navigate = useNavigate();
  const [dot, setDot] = useState(false);

  useEffect(() => {
    let live = true;
    const poll = () =>
      fetchAlarmCount({ deviceStatus: [ALARM_STATUS] }).then(
        (count) => live && setDot(count > 0),
        () => undefined,
      );
    void poll();
    const timer = setInterval(poll, getConfig().warnRefreshSeconds * 1000);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, []);

  return (
    <Tooltip title={t('console.nav.bell')}>
      <IconButton
        color="inherit"
        aria-label={t('console.nav.bell')}
        data-testid="bell"
        onClick={() => {
          setDot(false);
          navigate(STATUS_MONITOR_PATH);
        }}
      >
        <Badge variant="dot" color="error" invisible={!dot} slotProps={{ badge: { 'data-testid': dot ? 'bell-dot' : undefined } as object }}>
          <NotificationsIcon />
        </Badge>
      </IconButton>
    </Tooltip>
  );
}
