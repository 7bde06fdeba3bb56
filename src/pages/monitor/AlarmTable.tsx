import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import { NotifiedLink } from './NotifiedLink';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { Alarm } from '../../api/monitoringApi';
import { useDateFormatter } from '../../format/useDateFormatter';
import { deviceDetailPath } from './devicePaths';
import { useAgo } from './liveFormat';
import { AlarmRowButtons } from './AlarmRowButtons';
import { SEVERITY_COLOUR, type AlarmRowsProps, type AlarmShow } from './alarmModel';

/**
 * The alarm list on a wide screen: a tick per active alarm (and one for all on the page), then
 * severity, device, code, meaning, times, who acknowledged, and the row's actions.
 */
export function AlarmTable({
  rows,
  selected,
  toggle,
  busy,
  canClear,
  onAcknowledge,
  onClear,
  show,
  setSelected,
}: AlarmRowsProps & {
  show: AlarmShow;
  setSelected: (next: Set<number>) => void;
}) {
  const translate = useTranslate();
  const format = useDateFormatter();
  const ago = useAgo();
  const selectable = rows.filter((r) => r.active);
  const allChecked = selectable.length > 0 && selectable.every((r) => selected.has(r.id));
  return (
    <TableContainer component={Card} variant="outlined">
      <Table size="small" data-testid="alarm-table" sx={{ '& th': { whiteSpace: 'nowrap' } }}>
        <TableHead>
          <TableRow>
            <TableCell padding="checkbox">
              <Checkbox
                size="small"
                checked={allChecked}
                indeterminate={!allChecked && selectable.some((r) => selected.has(r.id))}
                disabled={!selectable.length}
                onChange={() => setSelected(allChecked ? new Set() : new Set(selectable.map((r) => r.id)))}
                slotProps={{ input: { 'aria-label': translate('ra.action.select_all') } }}
              />
            </TableCell>
            <TableCell>{translate('monitor.alarms.column.severity')}</TableCell>
            <TableCell>{translate('monitor.alarms.column.device')}</TableCell>
            <TableCell>{translate('monitor.alarms.column.code')}</TableCell>
            <TableCell sx={{ minWidth: 240 }}>{translate('monitor.alarms.column.meaning')}</TableCell>
            <TableCell>{translate('monitor.alarms.column.raisedAt')}</TableCell>
            <TableCell>{translate(show === 'cleared' ? 'monitor.alarms.column.clearedAt' : 'monitor.alarms.column.lastSeenAt')}</TableCell>
            <TableCell>{translate('monitor.alarms.column.acked')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((a: Alarm) => (
            <TableRow
              key={a.id}
              hover
              selected={selected.has(a.id)}
              data-testid={`alarm-row-${a.id}`}
              data-device={a.deviceId}
              data-code={a.code}
            >
              <TableCell padding="checkbox">
                <Checkbox
                  size="small"
                  checked={selected.has(a.id)}
                  disabled={!a.active}
                  onChange={() => toggle(a.id)}
                  slotProps={{ input: { 'aria-label': `${a.deviceName} ${a.code}` } }}
                />
              </TableCell>
              <TableCell>
                <Chip
                  size="small"
                  color={SEVERITY_COLOUR[a.severity] ?? 'default'}
                  label={translate(`monitor.alarms.severities.${a.severity}`)}
                />
                {a.active && <Box sx={{ fontSize: 11, color: 'error.main', mt: 0.25 }}>{translate('monitor.alarms.activeBadge')}</Box>}
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                <Link component={RouterLink} to={deviceDetailPath(a.deviceId)} underline="hover">
                  {a.deviceName}
                </Link>
                <Box sx={{ color: 'text.secondary', fontSize: '0.8em' }}>{a.deviceNum}</Box>
              </TableCell>
              <TableCell sx={{ fontFamily: 'monospace', fontWeight: 600 }}>{a.code}</TableCell>
              <TableCell>
                <Box sx={{ fontWeight: 500 }}>
                  {a.meaning}{' '}
                  <Box component="span" sx={{ color: 'text.secondary', fontWeight: 400 }}>
                    · {translate(`monitor.alarms.units.${a.unit}`)}
                  </Box>
                </Box>
                <Typography variant="body2" color="text.secondary" sx={{ fontSize: 12 }}>
                  {a.remedy}
                </Typography>
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                {format(a.raisedAt)}
                <Box sx={{ color: 'text.secondary', fontSize: '0.8em' }}>{ago(a.raisedAt)}</Box>
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{format(show === 'cleared' ? a.clearedAt : a.lastSeenAt)}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                {a.ackedAt ? (
                  translate('monitor.alarms.ackedBy', { name: a.ackedByName ?? '', time: format(a.ackedAt) })
                ) : (
                  <Box component="span" sx={{ color: 'warning.dark' }}>
                    {translate('monitor.alarms.notAcked')}
                  </Box>
                )}
                <NotifiedLink alarm={a} />
                {/* The row's actions under its acknowledgement (one column: the table fits 1440 px beside the menu). */}
                <AlarmRowButtons alarm={a} busy={busy} canClear={canClear} onAcknowledge={onAcknowledge} onClear={onClear} repointBelow />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
