import { useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { DeviceLiveState } from '../../api/monitoringApi';
import { DeviceStatusIcon } from '../../resources/devices/DeviceStatusIcon';
import { STATE_COLOURS } from '../../map/vesselStyle';
import { BackupLinkChip, FaultChips, isOnBackup, formatHeading, formatPosition, LastReport } from './liveFormat';
import { RowLinks } from './RowLinks';
import { formatSignal } from '../../format/signal';

/** One vessel as a card on a narrow screen. */
export function DeviceCard({ row, selected, onSelect }: { row: DeviceLiveState; selected: boolean; onSelect: () => void }) {
  const translate = useTranslate();
  return (
    <Card
      variant="outlined"
      onClick={onSelect}
      data-testid={`monitor-row-${row.id}`}
      data-status={row.status}
      sx={{
        p: 1.25,
        borderColor: selected ? 'primary.main' : undefined,
        borderLeft: `4px solid ${STATE_COLOURS[row.status] ?? STATE_COLOURS[0]}`,
      }}
    >
      <Stack direction="row" sx={{ alignItems: 'center', gap: 1 }}>
        <DeviceStatusIcon kind={row.deviceKind} status={row.status} size={26} />
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography sx={{ fontWeight: 600, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{row.name}</Typography>
          <Typography variant="caption" color="text.secondary">
            {[row.deviceNum, row.ownerName].filter(Boolean).join(' · ')}
          </Typography>
        </Box>
        <RowLinks id={row.id} />
      </Stack>
      <Box sx={{ mt: 0.5, fontSize: 13, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 1.5, rowGap: 0.25 }}>
        <Box component="span" sx={{ color: 'text.secondary' }}>
          {translate('monitor.column.lastReport')}
        </Box>
        <LastReport at={row.reportedAt} compact />
        {row.lat !== null && (
          <>
            <Box component="span" sx={{ color: 'text.secondary' }}>
              {translate('monitor.column.position')}
            </Box>
            <span>
              {formatPosition(row.lat, row.lon)} · {row.speed === null ? '' : translate('monitor.knots', { value: row.speed.toFixed(1) })} ·{' '}
              {formatHeading(row.heading)}
            </span>
          </>
        )}
        {(row.satelliteName || row.signalLevel !== null) && (
          <>
            <Box component="span" sx={{ color: 'text.secondary' }}>
              {translate(row.satelliteName ? 'monitor.column.satellite' : 'monitor.column.signal')}
            </Box>
            <span data-testid="monitor-signal">
              {row.satelliteName ? `${row.satelliteName} · ` : ''}
              {row.signalLevel === null
                ? ''
                : translate('monitor.signalValue', { level: formatSignal(row.signalLevel), snr: row.snr?.toFixed(1) })}
            </span>
          </>
        )}
      </Box>
      {isOnBackup(row.activeLink) && (
        <Box sx={{ mt: 0.5 }}>
          <BackupLinkChip link={row.activeLink} />
        </Box>
      )}
      {(row.faults.length > 0 || (row.status !== 0 && row.modemLock === false)) && (
        <Box sx={{ mt: 0.75 }}>
          <FaultChips faults={row.faults} modemLock={row.modemLock} status={row.status} />
        </Box>
      )}
    </Card>
  );
}
