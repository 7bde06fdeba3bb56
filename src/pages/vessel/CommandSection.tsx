import { useEffect, useRef } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { useGetManyReference, useNotify } from 'react-admin';
import { useTranslate } from 'ra-core';
import { isOpenCommand, type DeviceCommand } from '../../domain/commands';
import { callKey, useCallMutation, useCallQuery } from '../../data/dataHooks';
import { useDateFormatter } from '../../format/useDateFormatter';
import { COMMANDS } from '../../resources/commands/definition';
import { CommandOutcome, CommandStateChip } from '../../resources/commands/CommandCells';
import { CommandSender } from '../../resources/commands/CommandSender';
import { commandParamsText } from '../../domain/commandOutcome';
import { LoadState } from './LoadState';

const RECENT = 10;
/** While a command is open (queued, sent, a reboot under way) its state is read again this often (live push, where it runs, refreshes sooner). */
const OPEN_POLL_MS = 3000;
const HIDE_ON_PHONE = { display: { xs: 'none', md: 'table-cell' } } as const;

/**
 * The vessel page's Commands: buttons to send each kind of command (levels 1 and 2, a
 * sub-user where its enterprise granted it; the others only read), a confirmation for reboot and
 * re-point, and the vessel's recent commands, read again every few seconds while one is open.
 */
export function CommandSection({
  deviceId,
  deviceName,
  currentSatellite,
}: {
  deviceId: number;
  deviceName: string;
  currentSatellite?: string | null;
}) {
  const t = useTranslate();
  const notify = useNotify();
  const format = useDateFormatter();
  const queryClient = useQueryClient();
  const right = useCallQuery('commands', 'canSend', [deviceId]);
  const canSend = right.data?.canSend === true;
  const recent = useGetManyReference<DeviceCommand>(
    COMMANDS,
    {
      target: 'deviceId',
      id: deviceId,
      pagination: { page: 1, perPage: RECENT },
      sort: { field: 'id', order: 'DESC' },
      filter: {},
    },
    {
      placeholderData: keepPreviousData,
      refetchInterval: (query) => ((query.state.data?.data ?? []).some(isOpenCommand) ? OPEN_POLL_MS : false),
    },
  );
  // A command changing state (a reboot acknowledged, the vessel back) changes what the vessel page says of the vessel.
  const states = (recent.data ?? []).map((c) => `${c.id}:${c.state}`).join(',');
  const seen = useRef<string | null>(null);
  useEffect(() => {
    if (seen.current !== null && seen.current !== states) void queryClient.invalidateQueries({ queryKey: callKey('vessel', 'getDetail') });
    seen.current = states;
  }, [states, queryClient]);

  const canceller = useCallMutation('commands', 'cancel', { resources: [COMMANDS] });

  return (
    <Paper sx={{ p: 2 }} data-testid="command-section">
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1.5 }}>
        {t('commands.section')}
      </Typography>
      {canSend && (
        <Box sx={{ mb: 2 }}>
          <CommandSender vessels={[{ id: deviceId, name: deviceName }]} currentSatellite={currentSatellite} />
        </Box>
      )}
      {right.data && !canSend && (
        <Alert severity="info" sx={{ mb: 1.5 }} data-testid="command-read-only">
          {t('commands.readOnly')}
        </Alert>
      )}

      <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
        {t('commands.recent')}
      </Typography>
      <LoadState state={recent} />
      {recent.data && (
        <TableContainer>
          <Table size="small" data-testid="command-list" sx={{ '& th': { whiteSpace: 'nowrap' } }}>
            <TableHead>
              <TableRow>
                <TableCell>{t('commands.fields.kind')}</TableCell>
                <TableCell>{t('commands.fields.state')}</TableCell>
                <TableCell sx={HIDE_ON_PHONE}>{t('commands.fields.params')}</TableCell>
                <TableCell sx={HIDE_ON_PHONE}>{t('commands.fields.createdByName')}</TableCell>
                <TableCell>{t('commands.fields.createdAt')}</TableCell>
                <TableCell sx={HIDE_ON_PHONE}>{t('commands.fields.sentAt')}</TableCell>
                <TableCell sx={HIDE_ON_PHONE}>{t('commands.fields.ackedAt')}</TableCell>
                <TableCell>{t('commands.result')}</TableCell>
                {canSend && <TableCell />}
              </TableRow>
            </TableHead>
            <TableBody>
              {recent.data.map((c) => {
                return (
                  <TableRow key={c.id} data-testid="command-row" data-kind={c.kind} data-state={c.state}>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{t(`commands.kind.${c.kind}`)}</TableCell>
                    <TableCell>
                      <CommandStateChip command={c} />
                    </TableCell>
                    <TableCell sx={HIDE_ON_PHONE}>{commandParamsText(t, c)}</TableCell>
                    <TableCell sx={HIDE_ON_PHONE}>{c.createdByName}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{format(c.createdAt)}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap', ...HIDE_ON_PHONE }}>{format(c.sentAt)}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap', ...HIDE_ON_PHONE }}>{format(c.ackedAt)}</TableCell>
                    <TableCell sx={{ maxWidth: { xs: 160, md: 420 } }}>
                      <CommandOutcome command={c} />
                    </TableCell>
                    {canSend && (
                      <TableCell align="right">
                        {c.state === 'queued' && (
                          <Button
                            size="small"
                            disabled={canceller.isPending}
                            data-testid="command-cancel"
                            onClick={() => {
                              void canceller
                                .mutateAsync([c.id])
                                .then(() => notify('commands.cancelled', { type: 'success' }))
                                .catch(() => undefined);
                            }}
                          >
                            {t('commands.cancelCommand')}
                          </Button>
                        )}
                      </TableCell>
                    )}
                  </TableRow>
                );
              })}
              {recent.data.length === 0 && (
                <TableRow>
                  <TableCell colSpan={9}>
                    <Typography variant="body2" color="text.secondary" data-testid="command-none">
                      {t('commands.none')}
                    </Typography>
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Paper>
  );
}
