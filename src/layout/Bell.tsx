import { useEffect, useReducer, useState } from 'react';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import NotificationsIcon from '@mui/icons-material/Notifications';
import { useNavigate } from 'react-router-dom';
import { BELL_QUERY } from '../api/bellQuery';
import { useCallQuery } from '../data/dataHooks';
import { useWarnRefreshSeconds } from '../state/preferences';
import { useTranslate } from 'ra-core';
import { pollIntervalMs, useLiveStatus } from '../live/liveStatus';
import { LiveIndicator } from '../live/LiveIndicator';

export const STATUS_MONITOR_PATH = '/device/deviceManageData';
/** Where a click on the bell goes: the status monitor filtered to devices in alarm. */
export const BELL_TARGET = `${STATUS_MONITOR_PATH}?state=warn`;
/** How many devices the alarm query answered: a bare list (the query's own answer, docs/requirements.md §7), or { list } (a paged answer). */
function alarmCount(data: unknown): number {
  if (Array.isArray(data)) return data.length;
  if (data && typeof data === 'object' && Array.isArray((data as { list?: unknown }).list))
    return (data as { list: unknown[] }).list.length;
  return 0;
}

/**
 * The message bell: polls the alarm query every warnRefreshSeconds (while the live stream is up,
 * its events refetch the bell at once and the poll slows to a safety net); the dot is on while the
 * answer holds any device. A click clears the dot and opens the status monitor filtered to warn;
 * the dot stays off while the answer is the one the user saw, for one refresh period (when the
 * next poll would bring it back), so refetches the live stream causes do not undo the click at
 * once, and comes back at once with a different answer. The poll is always a background call.
 */
export function Bell() {
  const t = useTranslate();
  const navigate = useNavigate();
  const seconds = useWarnRefreshSeconds();
  const live = useLiveStatus();
  // Its key is BELL_KEY (src/data/bellKey.ts), which live events and alarm changes refresh.
  const { data } = useCallQuery('monitoring', 'liveAll', [BELL_QUERY], {
    background: 'always',
    refetchInterval: pollIntervalMs(seconds, live),
    refetchIntervalInBackground: true,
  });
  // The answer the user saw by clicking, and until when it keeps the dot off.
  const answer = JSON.stringify(data ?? null);
  const [seen, setSeen] = useState<{ answer: string; until: number } | null>(null);
  const [, wake] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    if (!seen) return undefined;
    const timer = setTimeout(wake, Math.max(0, seen.until - Date.now()));
    return () => clearTimeout(timer);
  }, [seen]);
  const hidden = seen !== null && seen.answer === answer && Date.now() < seen.until;
  const dot = alarmCount(data) > 0 && !hidden;

  return (
    <>
      <LiveIndicator status={live} />
      <Tooltip title={t('console.nav.bell')}>
        <IconButton
          color="inherit"
          aria-label={t('console.nav.bell')}
          data-testid="bell"
          onClick={() => {
            setSeen({ answer, until: Date.now() + seconds * 1000 });
            navigate(BELL_TARGET);
          }}
        >
          <Badge
            variant="dot"
            color="error"
            invisible={!dot}
            slotProps={{ badge: { 'data-testid': dot ? 'bell-dot' : undefined } as object }}
          >
            <NotificationsIcon />
          </Badge>
        </IconButton>
      </Tooltip>
    </>
  );
}
