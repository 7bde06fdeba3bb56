import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { Theme } from '@mui/material/styles';
import { keepPreviousData } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { useCallMutation, useCallQuery } from '../../data/dataHooks';
import { UPDATE_STATES, type Rollout, type UpdateState } from '../../domain/firmware';
import { useDateFormatter } from '../../format/useDateFormatter';
import { UpdateProgress, UpdateStateChip } from './UpdateStateChip';

/** While devices are still on their way the view asks again this often. */
export const LIVE_REFRESH_MS = 2_000;
const PAGE_SIZES = [10, 20, 50, 100];

export const unfinished = (r: Rollout) => r.counts.queued + r.counts.downloading + r.counts.downloaded + r.counts.updating > 0;

/** One rollout: its counts per state, overall progress, and each device's state and progress. */
export function RolloutCard({ rollout }: { rollout: Rollout }) {
  const translate = useTranslate();
  const format = useDateFormatter();
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(10);
  const [state, setState] = useState<UpdateState | undefined>(undefined);
  const live = unfinished(rollout);
  // The counts are the last argument (not sent, only in the key): when they move (the last poll included), the devices are read again.
  const targets = useCallQuery(
    'firmware',
    'targets',
    [rollout.id, page + 1, pageSize, state, UPDATE_STATES.map((s) => rollout.counts[s]).join()],
    {
      refetchInterval: live ? LIVE_REFRESH_MS : false,
      placeholderData: keepPreviousData,
      staleTime: 0,
    },
  );
  const done = rollout.counts.updated + rollout.counts.failed;
  // A refusal is shown by the error catalogue; the package, its rollouts and their devices are read again.
  const cancelRollout = useCallMutation('firmware', 'cancel', { resources: ['system/firmware'] });
  const cancel = () => cancelRollout.mutate([rollout.id]);
  return (
    <Card variant="outlined" data-testid={`fw-rollout-card-${rollout.id}`}>
      <CardContent>
        <Stack
          direction={{ xs: 'column', md: 'row' }}
          spacing={1}
          sx={{ justifyContent: 'space-between', alignItems: { md: 'center' }, mb: 1 }}
        >
          <Box>
            <Typography variant="subtitle1">
              {translate('firmware.rollout.summary', { id: rollout.id, time: format(rollout.createdAt), n: rollout.maxConcurrent })}
            </Typography>
            <Typography variant="body2" color="text.secondary" data-testid={`fw-rollout-progress-${rollout.id}`}>
              {translate('firmware.rollout.progress', { done, total: rollout.total })}
              {rollout.cancelledAt ? ` · ${translate('firmware.rollout.cancelled')}` : ''}
            </Typography>
          </Box>
          {rollout.counts.queued > 0 && !rollout.cancelledAt && (
            <Button size="small" color="warning" variant="outlined" onClick={cancel} disabled={cancelRollout.isPending}>
              {translate('firmware.rollout.cancel')}
            </Button>
          )}
        </Stack>
        <Box sx={{ maxWidth: 480, mb: 1 }}>
          <UpdateProgress state={live ? 'updating' : 'updated'} progress={rollout.total ? Math.round((done / rollout.total) * 100) : 0} />
        </Box>
        <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap', rowGap: 0.5, mb: 1 }}>
          <Chip
            size="small"
            label={`${translate('firmware.rollout.all')} ${rollout.total}`}
            variant={state ? 'outlined' : 'filled'}
            onClick={() => {
              setState(undefined);
              setPage(0);
            }}
          />
          {UPDATE_STATES.filter((s) => rollout.counts[s] > 0).map((s) => (
            <Box
              key={s}
              component="span"
              onClick={() => {
                setState(s);
                setPage(0);
              }}
              sx={{ cursor: 'pointer', opacity: state && state !== s ? 0.5 : 1 }}
            >
              <UpdateStateChip state={s} count={rollout.counts[s]} />
            </Box>
          ))}
        </Stack>
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" sx={{ '& td, & th': { whiteSpace: 'nowrap' }, '& th': { bgcolor: (t: Theme) => t.console?.tableHeader } }}>
            <TableHead>
              <TableRow>
                <TableCell>{translate('firmware.rollout.device')}</TableCell>
                <TableCell>{translate('firmware.rollout.deviceNum')}</TableCell>
                <TableCell>{translate('firmware.rollout.owner')}</TableCell>
                <TableCell>{translate('firmware.rollout.state')}</TableCell>
                <TableCell>{translate('firmware.rollout.stateProgress')}</TableCell>
                <TableCell>{translate('firmware.rollout.message')}</TableCell>
                <TableCell>{translate('firmware.rollout.updatedAt')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {targets.data?.list.map((t) => (
                <TableRow key={t.deviceId} data-testid={`fw-target-${t.deviceId}`} data-state={t.state}>
                  <TableCell>{t.deviceName}</TableCell>
                  <TableCell>{t.deviceNum ?? ''}</TableCell>
                  <TableCell>{t.ownerName ?? ''}</TableCell>
                  <TableCell>
                    <UpdateStateChip state={t.state} />
                  </TableCell>
                  <TableCell>{t.state === 'queued' ? '' : <UpdateProgress state={t.state} progress={t.progress} />}</TableCell>
                  <TableCell>{t.message ?? ''}</TableCell>
                  <TableCell>{format(t.updatedAt)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
        <TablePagination
          component="div"
          count={targets.data?.total ?? 0}
          page={page}
          rowsPerPage={pageSize}
          rowsPerPageOptions={PAGE_SIZES}
          onPageChange={(_, p) => setPage(p)}
          onRowsPerPageChange={(e) => {
            setPageSize(Number(e.target.value));
            setPage(0);
          }}
          labelRowsPerPage={translate('ra.navigation.page_rows_per_page')}
          labelDisplayedRows={({ from, to, count }) =>
            translate('ra.navigation.page_range_info', { offsetBegin: from, offsetEnd: to, total: count })
          }
        />
      </CardContent>
    </Card>
  );
}
