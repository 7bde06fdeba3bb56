import { useEffect, useState } from 'react';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import NotificationsIcon from '@mui/icons-material/Notifications';
import { useNavigate } from 'react-router-dom';
import { fetchAlarmCount } from '../api/usersApi';
import { useWarnRefreshSeconds } from '../state/preferences';
import { useTranslate } from 'ra-core';

/** The alarm device status of SPEC section 7. */
export const ALARM_STATUS = 2;
export const STATUS_MONITOR_PATH = '/device/deviceManageData';
/** Where a click on the bell goes: the status monitor filtered to devices in alarm. */
export const BELL_TARGET = `${STATUS_MONITOR_PATH}?state=warn`;
/** Fired by pages that acknowledge or clear alarms, so the bell asks again at once. */
export const ALARMS_CHANGED_EVENT = 'fleet:alarms-changed';
/**
 * The bell's query: devices in alarm (status 2) with an alarm nobody acknowledged (our server's
 * unacknowledgedOnly; a server that ignores it answers every device in alarm). One is enough.
 */
export const BELL_QUERY = { deviceStatus: [ALARM_STATUS], unacknowledgedOnly: true, pageIndex: 1, pageSize: 1 };

/**
 * The message bell: polls the alarm query every warnRefreshSeconds; the dot is on while the
 * answer holds any device. A click clears the dot and opens the status monitor filtered to warn.
 */
export function Bell() {
  const t = useTranslate();
  const navigate = useNavigate();
  const [dot, setDot] = useState(false);
  const seconds = useWarnRefreshSeconds();

  useEffect(() => {
    let live = true;
    const poll = () =>
      fetchAlarmCount(BELL_QUERY).then(
        (count) => live && setDot(count > 0),
        () => undefined,
      );
    void poll();
    const timer = setInterval(poll, seconds * 1000);
    window.addEventListener(ALARMS_CHANGED_EVENT, poll);
    return () => {
      live = false;
      clearInterval(timer);
      window.removeEventListener(ALARMS_CHANGED_EVENT, poll);
    };
  }, [seconds]);

  return (
    <Tooltip title={t('console.nav.bell')}>
      <IconButton
        color="inherit"
        aria-label={t('console.nav.bell')}
        data-testid="bell"
        onClick={() => {
          setDot(false);
          navigate(BELL_TARGET);
        }}
      >
        <Badge variant="dot" color="error" invisible={!dot} slotProps={{ badge: { 'data-testid': dot ? 'bell-dot' : undefined } as object }}>
          <NotificationsIcon />
        </Badge>
      </IconButton>
    </Tooltip>
  );
}
