import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'ra-core';
import type { Failover, LinkLane, VesselLinks } from '../../domain/links';
import { LINK_STATES } from '../../domain/links';
import { useDateFormatter } from '../../format/useDateFormatter';
import { useClientState } from '../../state/useClientState';
import { FAILOVER_COLORS, LINK_STATE_COLORS, spanOf, place, timeTicks } from './linkGeometry';
import { duration } from './StateBands';

const LANE_HEIGHT = 22;
/** A label column beside the lanes from 600 px; above each lane on a narrow screen. */
const ROW_SX = {
  display: 'grid',
  gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: '220px minmax(0, 1fr)' },
  columnGap: 2,
  rowGap: 0.25,
  alignItems: 'center',
} as const;

/** A link's name as the page shows it: its kind in words and the router's id for it. */
export function useLinkName() {
  const t = useTranslate();
  return (kind: string | undefined, linkId: string | null) =>
    linkId === null ? t('vessel.wan.noLink') : kind ? `${t(`vessel.wan.kinds.${kind}`)} ${linkId}` : linkId;
}

/** Primary (0), backup, or no longer reported (null). */
export function RoleChip({ priority }: { priority: number | null }) {
  const t = useTranslate();
  const key = priority === null ? 'gone' : priority === 0 ? 'primary' : 'backup';
  return (
    <Chip
      size="small"
      variant={priority === 0 ? 'filled' : 'outlined'}
      color={priority === 0 ? 'primary' : 'default'}
      label={t(`vessel.wan.${key}`)}
      sx={{ height: 20, fontSize: '0.7rem' }}
    />
  );
}

function Row({ label, children, testId }: { label: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <Box sx={ROW_SX} data-testid={testId}>
      <Box sx={{ minWidth: 0, display: label === null ? { xs: 'none', sm: 'block' } : 'block' }}>{label}</Box>
      {children}
    </Box>
  );
}

/** Faint lines where the traffic moved, drawn through every lane. */
function FailoverGuides({ failovers, from, to }: { failovers: Failover[]; from: number; to: number }) {
  return failovers.map((f, i) => (
    <Box
      key={`guide-${f.at}-${i}`}
      aria-hidden
      sx={{
        position: 'absolute',
        top: -2,
        bottom: -2,
        left: `${place(Date.parse(f.at), from, to)}%`,
        borderLeft: '1px dashed rgba(0,0,0,0.35)',
      }}
    />
  ));
}

/** One link's lane: its states as thin bands, the spans it carried the traffic as thick outlined ones. */
function Lane({ lane, from, to, failovers }: { lane: LinkLane; from: number; to: number; failovers: Failover[] }) {
  const t = useTranslate();
  const format = useDateFormatter();
  const name = useLinkName();
  return (
    <Row
      testId="link-lane"
      label={
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
          <Typography variant="body2" sx={{ fontWeight: 500 }} noWrap data-testid={`link-lane-label-${lane.linkId}`}>
            {name(lane.kind, lane.linkId)}
          </Typography>
          <RoleChip priority={lane.priority} />
        </Stack>
      }
    >
      <Box
        sx={{ position: 'relative', height: LANE_HEIGHT, borderRadius: 1, bgcolor: 'action.hover' }}
        data-testid={`link-lane-${lane.linkId}`}
      >
        {lane.segments.map((s) => {
          const start = Date.parse(s.from);
          const end = Date.parse(s.to);
          const { left, width } = spanOf(start, end, from, to);
          const state = t(`vessel.wan.states.${s.state}`) + (s.active ? ` · ${t('vessel.wan.active')}` : '');
          return (
            <Tooltip
              key={s.from}
              title={t('vessel.wan.segment', { state, from: format(start), to: format(end), duration: duration((end - start) / 1000) })}
            >
              <Box
                role="img"
                data-state={s.state}
                data-active={s.active ? 'true' : 'false'}
                sx={{
                  position: 'absolute',
                  left: `${left}%`,
                  width: `${width}%`,
                  minWidth: 2,
                  top: s.active ? 0 : 6,
                  bottom: s.active ? 0 : 6,
                  bgcolor: LINK_STATE_COLORS[s.state],
                  borderRadius: s.active ? 1 : 0.5,
                  boxShadow: s.active ? 'inset 0 0 0 2px rgba(0,0,0,0.45)' : 'none',
                }}
              />
            </Tooltip>
          );
        })}
        <FailoverGuides failovers={failovers} from={from} to={to} />
      </Box>
    </Row>
  );
}

/** The failovers as markers on their own strip, each with its time, from → to and reason. */
function FailoverStrip({ data, from, to }: { data: VesselLinks; from: number; to: number }) {
  const t = useTranslate();
  const format = useDateFormatter();
  const name = useLinkName();
  const kinds = new Map<string, string>([...data.lanes, ...data.links].map((l) => [l.linkId, l.kind]));
  return (
    <Row
      testId="link-failovers"
      label={
        <Typography variant="body2" color="text.secondary">
          {t('vessel.wan.failovers')}
        </Typography>
      }
    >
      <Box sx={{ position: 'relative', height: 18, borderBottom: 1, borderColor: 'divider' }}>
        {data.failovers.map((f, i) => {
          const title = t('vessel.wan.failover', {
            time: format(f.at),
            from: name(kinds.get(f.fromLink ?? ''), f.fromLink),
            to: name(kinds.get(f.toLink ?? ''), f.toLink),
            reason: t(`vessel.wan.reasons.${f.reason}`),
          });
          return (
            <Tooltip key={`${f.at}-${i}`} title={title}>
              <Box
                role="img"
                tabIndex={0}
                data-testid="failover-marker"
                data-reason={f.reason}
                sx={{
                  position: 'absolute',
                  left: `${place(Date.parse(f.at), from, to)}%`,
                  top: 2,
                  width: 12,
                  height: 12,
                  ml: '-6px',
                  transform: 'rotate(45deg)',
                  bgcolor: FAILOVER_COLORS[f.reason],
                  border: '1px solid #fff',
                  cursor: 'default',
                  '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: 2 },
                }}
              />
            </Tooltip>
          );
        })}
      </Box>
    </Row>
  );
}

function Legend() {
  const t = useTranslate();
  const swatch = (sx: object) => <Box sx={{ width: 18, height: 12, borderRadius: 0.5, ...sx }} />;
  return (
    <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap', mt: 1 }} data-testid="link-legend">
      {LINK_STATES.map((s) => (
        <Stack key={s} direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
          {swatch({ height: 8, bgcolor: LINK_STATE_COLORS[s] })}
          <Typography variant="caption">{t(`vessel.wan.states.${s}`)}</Typography>
        </Stack>
      ))}
      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
        {swatch({ height: 14, bgcolor: LINK_STATE_COLORS.up, boxShadow: 'inset 0 0 0 2px rgba(0,0,0,0.45)' })}
        <Typography variant="caption">{t('vessel.wan.active')}</Typography>
      </Stack>
    </Stack>
  );
}

/** A lane per link over the window, the failovers above them and the time axis in the selected zone. */
export function LinkLanes({ data }: { data: VesselLinks }) {
  const timeZone = useClientState((s) => s.timeZone);
  const from = Date.parse(data.from);
  const to = Date.parse(data.to);
  const ticks = timeTicks(from, to, timeZone, data.window);
  return (
    <Stack spacing={{ xs: 1, sm: 0.75 }} data-testid="link-lanes">
      <FailoverStrip data={data} from={from} to={to} />
      {data.lanes.map((lane) => (
        <Lane key={lane.linkId} lane={lane} from={from} to={to} failovers={data.failovers} />
      ))}
      <Row label={null}>
        <Box sx={{ position: 'relative', height: 20 }} data-testid="link-axis" aria-hidden>
          {ticks.map((tick) => (
            <Box
              key={tick.at}
              sx={{ position: 'absolute', left: `${tick.left}%`, top: 0, display: { xs: tick.major ? 'block' : 'none', sm: 'block' } }}
            >
              <Box sx={{ height: 4, borderLeft: 1, borderColor: 'text.secondary' }} />
              <Typography
                variant="caption"
                color="text.secondary"
                sx={{ position: 'absolute', transform: 'translateX(-50%)', top: 3, whiteSpace: 'nowrap' }}
              >
                {tick.label}
              </Typography>
            </Box>
          ))}
        </Box>
      </Row>
      <Legend />
    </Stack>
  );
}
