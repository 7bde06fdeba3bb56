import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Box from '@mui/material/Box';
import { useTranslate } from 'react-admin';
import type { UpdateState } from '../../domain/firmware';

const COLOR: Record<UpdateState, 'default' | 'info' | 'primary' | 'secondary' | 'success' | 'error' | 'warning'> = {
  queued: 'default',
  downloading: 'info',
  downloaded: 'primary',
  updating: 'warning',
  updated: 'success',
  failed: 'error',
};

/** A device's update state as a coloured chip. */
export function UpdateStateChip({ state, count }: { state: UpdateState; count?: number }) {
  const translate = useTranslate();
  const label = translate(`firmware.state.${state}`) + (count === undefined ? '' : ` ${count}`);
  return <Chip size="small" color={COLOR[state]} variant={state === 'queued' ? 'outlined' : 'filled'} label={label} data-state={state} />;
}

/** The progress of a downloading or installing device (a bar and its percent). */
export function UpdateProgress({ state, progress }: { state: UpdateState; progress: number }) {
  const translate = useTranslate();
  const value = state === 'updated' || state === 'downloaded' ? 100 : progress;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 140 }}>
      <LinearProgress
        aria-label={translate(`firmware.state.${state}`)}
        variant="determinate"
        value={value}
        color={state === 'failed' ? 'error' : state === 'updated' ? 'success' : 'primary'}
        sx={{ flex: 1, height: 6, borderRadius: 3 }}
      />
      <Box component="span" sx={{ fontSize: 12, width: 36, textAlign: 'right' }}>
        {value}%
      </Box>
    </Box>
  );
}
