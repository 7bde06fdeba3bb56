import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { Band } from '../../api/vesselApi';
import { useDateFormatter } from '../../format/useDateFormatter';
import { useTranslate } from 'ra-core';
import { STATE_COLORS } from './stateColors';

const STATE_KEY = { online: 'deviceState.online', warn: 'deviceState.warn', offline: 'deviceState.offline' } as const;
export const duration = (seconds: number) => {
  const h = Math.floor(seconds / 3600);
  const m = Math.round((seconds % 3600) / 60);
  return h ? `${h}h ${String(m).padStart(2, '0')}m` : `${m}m`;
};

/** Online / warn / offline over the window as one strip, each band as wide as its time. */
export function StateBands({
  bands,
  from,
  to,
  totals,
}: {
  bands: Band[];
  from: number;
  to: number;
  totals: Record<Band['state'], number>;
}) {
  const t = useTranslate();
  const format = useDateFormatter();
  const span = Math.max(1, to - from);
  return (
    <Box data-testid="state-bands">
      <Box sx={{ display: 'flex', height: 18, borderRadius: 1, overflow: 'hidden', bgcolor: STATE_COLORS.offline }}>
        {/* A band is a picture of its time span: the tooltip's text is its name (role img). */}
        {bands.map((b) => (
          <Tooltip
            key={`${b.from}-${b.state}`}
            title={`${t(STATE_KEY[b.state])}: ${format(b.from)} – ${format(b.to)} (${duration((b.to - b.from) / 1000)})`}
          >
            <Box role="img" data-state={b.state} sx={{ width: `${((b.to - b.from) / span) * 100}%`, bgcolor: STATE_COLORS[b.state] }} />
          </Tooltip>
        ))}
      </Box>
      <Stack direction="row" spacing={2} useFlexGap sx={{ mt: 0.5, flexWrap: 'wrap' }}>
        {(['online', 'warn', 'offline'] as const).map((s) => (
          <Stack key={s} direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
            <Box sx={{ width: 10, height: 10, borderRadius: '2px', bgcolor: STATE_COLORS[s] }} />
            <Typography variant="caption">
              {t(STATE_KEY[s])} {duration(totals[s])}
            </Typography>
          </Stack>
        ))}
      </Stack>
    </Box>
  );
}
