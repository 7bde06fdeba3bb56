import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import { NotifiedLink } from './NotifiedLink';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useDateFormatter } from '../../format/useDateFormatter';
import { deviceDetailPath } from './devicePaths';
import { useAgo } from './liveFormat';
import { AlarmRowButtons } from './AlarmRowButtons';
import { SEVERITY_COLOUR, type AlarmRowsProps } from './alarmModel';

/** The alarm list on a narrow screen: one card per alarm. */
export function AlarmCards({ rows, selected, toggle, busy, canClear, onAcknowledge, onClear }: AlarmRowsProps) {
  const translate = useTranslate();
  const format = useDateFormatter();
  const ago = useAgo();
  return (
    <Stack sx={{ gap: 1 }} data-testid="alarm-cards">
      {rows.map((a) => (
        <Card key={a.id} variant="outlined" sx={{ p: 1.25 }} data-testid={`alarm-row-${a.id}`} data-device={a.deviceId} data-code={a.code}>
          <Stack direction="row" sx={{ alignItems: 'center', gap: 1 }}>
            <Checkbox
              size="small"
              checked={selected.has(a.id)}
              disabled={!a.active}
              onChange={() => toggle(a.id)}
              sx={{ p: 0.5 }}
              slotProps={{ input: { 'aria-label': `${a.deviceName} ${a.code}` } }}
            />
            <Chip
              size="small"
              color={SEVERITY_COLOUR[a.severity] ?? 'default'}
              label={`${a.code} · ${translate(`monitor.alarms.severities.${a.severity}`)}`}
            />
            <Link
              component={RouterLink}
              to={deviceDetailPath(a.deviceId)}
              underline="hover"
              sx={{ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', fontWeight: 500 }}
            >
              {a.deviceName}
            </Link>
          </Stack>
          <Box sx={{ mt: 0.75, fontWeight: 500, fontSize: 14 }}>
            {a.meaning}{' '}
            <Box component="span" sx={{ color: 'text.secondary', fontWeight: 400 }}>
              · {translate(`monitor.alarms.units.${a.unit}`)}
            </Box>
          </Box>
          <Typography variant="body2" color="text.secondary" sx={{ fontSize: 12 }}>
            {a.remedy}
          </Typography>
          <Box sx={{ mt: 0.5, fontSize: 12, color: 'text.secondary' }}>
            {translate('monitor.alarms.column.raisedAt')}: {format(a.raisedAt)} ({ago(a.raisedAt)})
            {a.clearedAt && (
              <>
                {' '}
                · {translate('monitor.alarms.column.clearedAt')}: {format(a.clearedAt)}
              </>
            )}
          </Box>
          <Stack direction="row" sx={{ mt: 0.5, alignItems: 'center', gap: 1, fontSize: 12 }}>
            <Box sx={{ flex: 1, color: a.ackedAt ? 'text.secondary' : 'warning.dark' }}>
              {a.ackedAt
                ? translate('monitor.alarms.ackedBy', { name: a.ackedByName ?? '', time: format(a.ackedAt) })
                : translate('monitor.alarms.notAcked')}
              <NotifiedLink alarm={a} />
            </Box>
            <AlarmRowButtons alarm={a} busy={busy} canClear={canClear} onAcknowledge={onAcknowledge} onClear={onClear} />
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}
