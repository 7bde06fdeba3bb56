import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import type { TrackPoint, TrackSummary } from '../../domain/track';
import { formatPosition } from '../../domain/position';
import { useDateFormatter } from '../../format/useDateFormatter';
import { formatSignal } from '../../format/signal';
import { useTranslate } from 'ra-core';
import { STATE_COLOURS } from '../../map/vesselStyle';

function Rows({ rows, testId }: { rows: [string, ReactNode, string?][]; testId: string }) {
  return (
    <Table size="small" data-testid={testId}>
      <TableBody>
        {rows.map(([name, value, id]) => (
          <TableRow key={name}>
            <TableCell component="th" sx={{ color: 'text.secondary', pl: 0, width: '45%' }}>
              {name}
            </TableCell>
            <TableCell sx={{ pr: 0 }} data-testid={id}>
              {value}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export function useDuration() {
  const t = useTranslate();
  return (seconds: number) => t('track.summary.duration', { h: Math.floor(seconds / 3600), m: Math.floor((seconds % 3600) / 60) });
}

/** Distance sailed, time under way, time online, stops (over every report of the window). */
export function SummaryPanel({ summary }: { summary: TrackSummary }) {
  const t = useTranslate();
  const duration = useDuration();
  return (
    <Paper variant="outlined" sx={{ p: 1.5 }}>
      <Typography variant="subtitle2" component="h2">
        {t('track.summary.title')}
      </Typography>
      <Rows
        testId="track-summary"
        rows={[
          [t('track.summary.distance'), t('track.summary.nm', { value: summary.distanceNm.toFixed(1) }), 'summary-distance'],
          [t('track.summary.underWay'), duration(summary.underWaySeconds)],
          [t('track.summary.online'), duration(summary.onlineSeconds)],
          [t('track.summary.stops'), summary.stops],
          [t('track.summary.reports'), summary.reports],
          [t('track.summary.gaps'), summary.gaps],
        ]}
      />
    </Paper>
  );
}

/** The report at the playback cursor, its time in the selected zone. */
export function CursorReport({ point }: { point: TrackPoint | undefined }) {
  const t = useTranslate();
  const date = useDateFormatter();
  if (!point) return null;
  const state = point.state === 2 ? 'warn' : 'online';
  return (
    <Paper variant="outlined" sx={{ p: 1.5 }}>
      <Typography variant="subtitle2" component="h2">
        {t('track.cursor.title')}
      </Typography>
      <Rows
        testId="cursor-report"
        rows={[
          [t('track.cursor.time'), date(point.time), 'cursor-time'],
          [
            t('track.cursor.position'),
            formatPosition(point.lat, point.lon)
              .split(', ')
              .map((part) => <div key={part}>{part}</div>),
            'cursor-position',
          ],
          [t('track.cursor.speed'), t('track.cursor.knots', { value: point.speed.toFixed(1) })],
          [t('track.cursor.heading'), `${point.heading}°`],
          [t('track.cursor.signal'), formatSignal(point.signal), 'cursor-signal'],
          // The state colour as a dot beside dark text: the green on white is 3.5:1, under WCAG AA.
          [
            t('track.cursor.state'),
            <span>
              <span
                aria-hidden
                style={{
                  display: 'inline-block',
                  width: 10,
                  height: 10,
                  borderRadius: '50%',
                  background: STATE_COLOURS[point.state],
                  marginRight: 6,
                }}
              />
              {t(`track.legend.${state}`)}
            </span>,
          ],
        ]}
      />
    </Paper>
  );
}

/** The map's legend: the state colours, gaps, and whether the detail of the view is shown. */
export function TrackLegend({ detail }: { detail: boolean }) {
  const t = useTranslate();
  const swatch = (colour: string, dashed = false) => (
    <Box
      component="span"
      sx={{
        display: 'inline-block',
        width: 18,
        height: 0,
        borderTop: `3px ${dashed ? 'dotted' : 'solid'} ${colour}`,
        mr: 0.5,
        verticalAlign: 'middle',
      }}
    />
  );
  return (
    <Box
      sx={{
        position: 'absolute',
        left: 8,
        bottom: 24,
        zIndex: 1000,
        bgcolor: 'rgba(255,255,255,0.9)',
        borderRadius: 1,
        px: 1,
        py: 0.5,
        fontSize: 12,
        lineHeight: 1.8,
      }}
    >
      <div>
        {swatch(STATE_COLOURS[1]!)}
        {t('track.legend.online')}
      </div>
      <div>
        {swatch(STATE_COLOURS[2]!)}
        {t('track.legend.warn')}
      </div>
      <div>
        {swatch('#b0b8c0', true)}
        {t('track.legend.gap')}
      </div>
      {detail && (
        <div style={{ color: '#555' }} data-testid="track-detail">
          {t('track.detail')}
        </div>
      )}
    </Box>
  );
}
