import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import { useTranslate } from 'ra-core';
import type { LiveStatus } from './liveStatus';

/**
 * A quiet sign next to the bell that events arrive live: a small dot while the stream is up,
 * nothing otherwise (the console then polls, as docs/requirements.md §7 says, which needs no sign).
 */
export function LiveIndicator({ status }: { status: LiveStatus }) {
  const t = useTranslate();
  if (status !== 'live') return null;
  const label = t('live.on');
  return (
    <Tooltip title={label}>
      <Box
        role="img"
        aria-label={label}
        data-testid="live-indicator"
        sx={{
          width: 8,
          height: 8,
          borderRadius: '50%',
          bgcolor: 'success.light',
          mx: 0.5,
          flexShrink: 0,
          boxShadow: (th) => `0 0 0 1px ${th.palette.background.paper}`,
        }}
      />
    </Tooltip>
  );
}
