import { useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { StateCounts } from '../../api/monitoringApi';
import { STATE_COLOURS } from '../../map/vesselStyle';
import { STATE_NAMES, type MonitorFilters, type StateName } from './monitorFilters';

const STATE_COLOUR_OF: Record<StateName, string> = { online: STATE_COLOURS[1]!, offline: STATE_COLOURS[0]!, warn: STATE_COLOURS[2]! };

/**
 * The status monitor's counts per state, each a toggle that filters the list by its state, and
 * how often the list refreshes itself.
 */
export function StateCountChips({
  counts,
  state,
  refreshMs,
  change,
}: {
  counts: StateCounts | undefined;
  state: StateName | null;
  refreshMs: number;
  change: (next: Partial<MonitorFilters>) => void;
}) {
  const translate = useTranslate();
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mb: 1.5 }} data-testid="state-counts">
      <CountChip
        label={translate('monitor.state.all')}
        count={counts?.total}
        active={!state}
        colour="#065aa1"
        onClick={() => change({ state: null })}
        testId="count-all"
      />
      {STATE_NAMES.map((name) => (
        <CountChip
          key={name}
          label={translate(`monitor.state.${name}`)}
          count={counts?.[name]}
          active={state === name}
          colour={STATE_COLOUR_OF[name]}
          onClick={() => change({ state: state === name ? null : name })}
          testId={`count-${name}`}
        />
      ))}
      <Box sx={{ flex: 1 }} />
      <Typography variant="caption" color="text.secondary" sx={{ alignSelf: 'center' }}>
        {translate('monitor.autoRefresh', { seconds: refreshMs / 1000 })}
      </Typography>
    </Stack>
  );
}

/**
 * A state's count as a toggle. The state colour is a dot and the border (the active one also a
 * tint); the text stays the theme's dark text, since the state colours on white or white on them
 * fall under WCAG AA 4.5:1.
 */
function CountChip({
  label,
  count,
  active,
  colour,
  onClick,
  testId,
}: {
  label: string;
  count: number | undefined;
  active: boolean;
  colour: string;
  onClick: () => void;
  testId: string;
}) {
  const tint = `${colour}24`;
  return (
    <Chip
      clickable
      onClick={onClick}
      data-testid={testId}
      aria-pressed={active}
      label={
        <Box component="span" sx={{ display: 'inline-flex', gap: 0.75, alignItems: 'center' }}>
          <Box component="span" aria-hidden sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: colour, flexShrink: 0 }} />
          <span>{label}</span>
          <b>{count ?? '–'}</b>
        </Box>
      }
      variant="outlined"
      sx={{
        borderColor: colour,
        borderWidth: active ? 2 : 1,
        color: 'text.primary',
        bgcolor: active ? tint : 'background.paper',
        fontSize: 14,
        height: 34,
        px: active ? 0.375 : 0.5,
        '&:hover': { bgcolor: active ? tint : `${colour}12` },
        '&.MuiChip-clickable:hover': { bgcolor: active ? tint : `${colour}12` },
      }}
    />
  );
}
