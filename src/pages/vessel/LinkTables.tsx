import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'ra-core';
import type { CurrentLink, LinkTime, VesselLinks } from '../../domain/links';
import { formatSignal } from '../../format/signal';
import { useDateFormatter } from '../../format/useDateFormatter';
import { RoleChip, useLinkName } from './LinkLanes';
import { figure, LINK_STATE_COLORS, share } from './linkGeometry';
import { duration } from './StateBands';

const TABLE_SX = { '& td, & th': { whiteSpace: 'nowrap', px: 1 } } as const;
/** A table that scrolls sideways on a narrow screen is a named region the keyboard can reach (and scroll with the arrows). */
const ScrollRegion = ({ label, children }: { label: string; children: ReactNode }) => (
  <TableContainer
    tabIndex={0}
    role="region"
    aria-label={label}
    sx={{ '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: 2 } }}
  >
    {children}
  </TableContainer>
);

function LinkCell({ kind, linkId, priority }: { kind: string; linkId: string; priority?: number | null }) {
  const name = useLinkName();
  return (
    <TableCell>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <span>{name(kind, linkId)}</span>
        {priority !== undefined && <RoleChip priority={priority} />}
      </Stack>
    </TableCell>
  );
}

function CurrentRow({ link }: { link: CurrentLink }) {
  const t = useTranslate();
  const signal = [formatSignal(link.signal), link.snr === null ? '' : `${figure(link.snr)} dB`].filter(Boolean).join(' / ');
  const throughput = link.downMbps === null && link.upMbps === null ? '—' : `${figure(link.downMbps)} / ${figure(link.upMbps)}`;
  return (
    <TableRow data-testid={`current-link-${link.linkId}`} data-active={link.active ? 'true' : 'false'}>
      <LinkCell kind={link.kind} linkId={link.linkId} priority={link.priority} />
      <TableCell data-testid="current-link-state">
        <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center' }}>
          <Box sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: LINK_STATE_COLORS[link.state] }} />
          <span>{t(`vessel.wan.states.${link.state}`)}</span>
        </Stack>
      </TableCell>
      <TableCell sx={{ fontWeight: link.active ? 600 : 400 }}>{t(link.active ? 'vessel.detail.yes' : 'vessel.detail.no')}</TableCell>
      <TableCell align="right">{figure(link.latencyMs)}</TableCell>
      <TableCell align="right">{throughput}</TableCell>
      <TableCell align="right">{signal || '—'}</TableCell>
      <TableCell align="right">{link.kind === 'leo' && link.obstructionPct !== null ? `${figure(link.obstructionPct)}%` : '—'}</TableCell>
    </TableRow>
  );
}

function TimeRow({ time }: { time: LinkTime }) {
  const counted = time.upSeconds + time.standbySeconds + time.downSeconds;
  return (
    <TableRow data-testid={`link-time-${time.linkId}`}>
      <LinkCell kind={time.kind} linkId={time.linkId} />
      <TableCell align="right">{duration(counted)}</TableCell>
      <TableCell align="right">{share(time.upSeconds, counted)}</TableCell>
      <TableCell align="right">{share(time.standbySeconds, counted)}</TableCell>
      <TableCell align="right">{share(time.downSeconds, counted)}</TableCell>
      <TableCell align="right" sx={{ fontWeight: 600 }}>
        {share(time.activeSeconds, counted)}
      </TableCell>
      <TableCell align="right">{figure(time.latencyMs)}</TableCell>
    </TableRow>
  );
}

const heading = (text: string) => (
  <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>
    {text}
  </Typography>
);

/** The links now (state, traffic, figures) and each link's share of the window's counted time; each table scrolls on a narrow screen. */
export function LinkTables({ data }: { data: VesselLinks }) {
  const t = useTranslate();
  const format = useDateFormatter();
  const col = (key: string) => t(`vessel.wan.columns.${key}`);
  const reported = data.links.reduce((latest, l) => (l.reportedAt > latest ? l.reportedAt : latest), '');
  // The links in the router's order of preference, then those no longer reported.
  const order = new Map(data.lanes.map((l, i) => [l.linkId, i]));
  const times = [...data.availability].sort((a, b) => (order.get(a.linkId) ?? 99) - (order.get(b.linkId) ?? 99));
  return (
    <Box>
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'baseline', flexWrap: 'wrap' }}>
        {heading(t('vessel.wan.current'))}
        {reported && (
          <Typography variant="caption" color="text.secondary" data-testid="links-reported-at">
            {t('vessel.wan.reportedAt', { time: format(reported) })}
          </Typography>
        )}
      </Stack>
      {data.links.length === 0 ? (
        <Typography color="text.secondary" variant="body2">
          {t('vessel.wan.noCurrent')}
        </Typography>
      ) : (
        <ScrollRegion label={t('vessel.wan.current')}>
          <Table size="small" sx={TABLE_SX} data-testid="current-links">
            <TableHead>
              <TableRow>
                <TableCell>{col('link')}</TableCell>
                <TableCell>{col('state')}</TableCell>
                <TableCell>{col('traffic')}</TableCell>
                <TableCell align="right">{col('latency')}</TableCell>
                <TableCell align="right">{col('throughput')}</TableCell>
                <TableCell align="right">{col('signal')}</TableCell>
                <TableCell align="right">{col('obstruction')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.links.map((link) => (
                <CurrentRow key={link.linkId} link={link} />
              ))}
            </TableBody>
          </Table>
        </ScrollRegion>
      )}
      {heading(t('vessel.wan.time'))}
      <Typography variant="caption" color="text.secondary" component="p">
        {t('vessel.wan.timeHint')}
      </Typography>
      {times.length === 0 ? (
        <Typography color="text.secondary" variant="body2">
          {t('vessel.wan.noTime')}
        </Typography>
      ) : (
        <ScrollRegion label={t('vessel.wan.time')}>
          <Table size="small" sx={TABLE_SX} data-testid="link-times">
            <TableHead>
              <TableRow>
                <TableCell>{col('link')}</TableCell>
                <TableCell align="right">{col('counted')}</TableCell>
                <TableCell align="right">{col('up')}</TableCell>
                <TableCell align="right">{col('standby')}</TableCell>
                <TableCell align="right">{col('down')}</TableCell>
                <TableCell align="right">{col('carrying')}</TableCell>
                <TableCell align="right">{col('avgLatency')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {times.map((time) => (
                <TimeRow key={time.linkId} time={time} />
              ))}
            </TableBody>
          </Table>
        </ScrollRegion>
      )}
    </Box>
  );
}
