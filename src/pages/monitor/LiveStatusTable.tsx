import { useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import type { Theme } from '@mui/material/styles';
import type { DeviceLiveState } from '../../api/monitoringApi';
import { DeviceStatusIcon } from '../../resources/devices/DeviceStatusIcon';
import { STICKY_ACTIONS_CELL_SX } from '../../resources/generic/listStyles';
import { BackupLinkChip, FaultChips, formatHeading, formatPosition, LastReport } from './liveFormat';
import { RowLinks } from './RowLinks';
import { formatSignal } from '../../format/signal';
import type { MonitorFilters, MonitorSort } from './monitorFilters';

/** The status monitor's table on a wide screen: sortable columns, one row per vessel, a click selects it. */
export function LiveStatusTable({
  rows,
  filters,
  change,
  selected,
  onSelect,
}: {
  rows: DeviceLiveState[];
  filters: MonitorFilters;
  change: (next: Partial<MonitorFilters>) => void;
  selected: number | null;
  onSelect: (id: number) => void;
}) {
  const translate = useTranslate();
  const sortLabel = (key: MonitorSort, label: string) => (
    <TableSortLabel
      active={filters.sort === key}
      direction={filters.sort === key ? filters.order : 'asc'}
      onClick={() => change({ sort: key, order: filters.sort === key && filters.order === 'asc' ? 'desc' : 'asc' })}
    >
      {label}
    </TableSortLabel>
  );
  return (
    <TableContainer component={Card} variant="outlined" sx={{ maxWidth: '100%' }}>
      {/* Fits its card at any width in both languages: long text wraps (the fault chips too, never
          clipped), and the row links stay in view in a sticky last column. */}
      <Table size="small" data-testid="monitor-table" sx={{ '& th': { whiteSpace: 'nowrap' }, '& td': { overflowWrap: 'break-word' } }}>
        <TableHead>
          <TableRow>
            <TableCell>{sortLabel('status', translate('monitor.column.state'))}</TableCell>
            <TableCell>{sortLabel('name', translate('monitor.column.name'))}</TableCell>
            <TableCell>{sortLabel('ownerName', translate('monitor.column.owner'))}</TableCell>
            <TableCell>{translate('monitor.column.position')}</TableCell>
            <TableCell>{sortLabel('speed', translate('monitor.column.speedHeading'))}</TableCell>
            <TableCell>{sortLabel('reportedAt', translate('monitor.column.lastReport'))}</TableCell>
            <TableCell>{translate('monitor.column.satelliteSignal')}</TableCell>
            <TableCell>{translate('monitor.column.faults')}</TableCell>
            <TableCell sx={{ px: 0.5, ...STICKY_ACTIONS_CELL_SX, bgcolor: (t: Theme) => t.console.tableHeader }} />
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow
              key={row.id}
              hover
              selected={selected === row.id}
              onClick={() => onSelect(row.id)}
              data-testid={`monitor-row-${row.id}`}
              data-status={row.status}
            >
              <TableCell>
                <DeviceStatusIcon kind={row.deviceKind} status={row.status} size={26} />
              </TableCell>
              <TableCell sx={{ fontWeight: 500, minWidth: 120 }}>
                <Box>{row.name}</Box>
                <Box sx={{ color: 'text.secondary', fontSize: '0.8em' }}>{row.deviceNum}</Box>
              </TableCell>
              <TableCell>{row.ownerName}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                {formatPosition(row.lat, row.lon)
                  .split(' ')
                  .map((part) => (
                    <Box key={part}>{part}</Box>
                  ))}
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                {row.speed === null ? (
                  ''
                ) : (
                  <>
                    <Box>{translate('monitor.knots', { value: row.speed.toFixed(1) })}</Box>
                    <Box>{formatHeading(row.heading)}</Box>
                  </>
                )}
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                <LastReport at={row.reportedAt} />
              </TableCell>
              <TableCell sx={{ minWidth: 110 }}>
                <Box>{row.satelliteName ? `${row.satelliteName} (${row.satelliteLongitude}°)` : ''}</Box>
                <Box sx={{ color: 'text.secondary', fontSize: '0.85em' }} data-testid="monitor-signal">
                  {row.signalLevel === null
                    ? ''
                    : translate('monitor.signalValue', { level: formatSignal(row.signalLevel), snr: row.snr?.toFixed(1) })}
                </Box>
                <BackupLinkChip link={row.activeLink} />
              </TableCell>
              <TableCell
                sx={{
                  minWidth: 180,
                  '& .MuiChip-root': { maxWidth: '100%', height: 'auto', minHeight: 24 },
                  '& .MuiChip-label': { whiteSpace: 'normal', py: 0.25 },
                }}
              >
                <FaultChips faults={row.faults} modemLock={row.modemLock} status={row.status} />
              </TableCell>
              <TableCell
                sx={{
                  whiteSpace: 'nowrap',
                  px: 0.5,
                  ...STICKY_ACTIONS_CELL_SX,
                  ...(selected === row.id ? { bgcolor: 'action.selected' } : {}),
                }}
              >
                <RowLinks id={row.id} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
