import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'ra-core';
import type { FaultRecord } from '../../api/supportApi';
import { useDateFormatter } from '../../format/useDateFormatter';

/** The vessel's fault clearing history (null: not read yet). */
export function FaultHistory({ records }: { records: FaultRecord[] | null }) {
  const t = useTranslate();
  const format = useDateFormatter();
  if (!records) return null;
  if (!records.length)
    return (
      <Typography variant="body2" color="text.secondary">
        {t('support.fault.noHistory')}
      </Typography>
    );
  return (
    <Box sx={{ overflowX: 'auto', contain: 'inline-size' }}>
      <Table size="small" data-testid="fc-history">
        <TableHead>
          <TableRow>
            <TableCell>{t('support.fault.time')}</TableCell>
            <TableCell>{t('support.fault.code')}</TableCell>
            <TableCell>{t('support.fault.action')}</TableCell>
            <TableCell>{t('support.fault.stepsDone')}</TableCell>
            <TableCell>{t('support.fault.result')}</TableCell>
            <TableCell>{t('support.fault.recordedBy')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {records.map((r) => (
            <TableRow key={r.id}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{format(r.createdAt)}</TableCell>
              <TableCell>{r.code}</TableCell>
              <TableCell sx={{ minWidth: 200 }}>{r.action}</TableCell>
              <TableCell>{r.stepsDone.map((i) => i + 1).join(', ')}</TableCell>
              <TableCell>
                <Chip
                  size="small"
                  color={r.cleared ? 'success' : 'default'}
                  label={t(r.cleared ? 'support.fault.cleared' : 'support.fault.notCleared')}
                />
              </TableCell>
              <TableCell>{r.recordedByName ?? ''}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
