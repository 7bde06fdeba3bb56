import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import SatelliteAltIcon from '@mui/icons-material/SatelliteAlt';
import TimerIcon from '@mui/icons-material/Timer';
import MedicalInformationIcon from '@mui/icons-material/MedicalInformation';
import SystemUpdateAltIcon from '@mui/icons-material/SystemUpdateAlt';
import { keepPreviousData } from '@tanstack/react-query';
import { useGetManyReference, useNotify } from 'react-admin';
import { useTranslate } from 'ra-core';
import {
  COMMAND_KINDS,
  OPEN_COMMAND_STATES,
  isDisruptive,
  type CommandInput,
  type CommandKind,
  type DeviceCommand,
} from '../../domain/commands';
import { useCallMutation, useCallQuery } from '../../data/dataHooks';
import { useDateFormatter } from '../../format/useDateFormatter';
import { COMMANDS, COMMAND_STATE_COLORS } from '../../resources/commands/definition';
import { CommandDialog } from './CommandDialog';
import { LoadState } from './LoadState';

const RECENT = 10;
/** While a command is queued or sent its state is read again this often (live push, where it runs, refreshes sooner). */
const OPEN_POLL_MS = 3000;
const ICONS: Record<CommandKind, typeof RestartAltIcon> = {
  reboot: RestartAltIcon,
  repoint: SatelliteAltIcon,
  setInterval: TimerIcon,
  diagnostics: MedicalInformationIcon,
  firmwareCheck: SystemUpdateAltIcon,
};
/** Kinds sent at a click: nothing to choose, nothing disrupted. */
const needsDialog = (kind: CommandKind) => isDisruptive(kind) || kind === 'setInterval';
const HIDE_ON_PHONE = { display: { xs: 'none', md: 'table-cell' } } as const;

const compact = (value: Record<string, unknown> | null | undefined) =>
  value
    ? Object.entries(value)
        .map(([k, v]) => `${k}: ${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`)
        .join(', ')
    : '';

export function CommandStateChip({ state }: { state: DeviceCommand['state'] }) {
  const t = useTranslate();
  return (
    <Chip
      size="small"
      color={COMMAND_STATE_COLORS[state]}
      variant={state === 'queued' ? 'outlined' : 'filled'}
      label={t(`commands.state.${state}`)}
      data-state={state}
    />
  );
}

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
  const [dialog, setDialog] = useState<CommandKind | null>(null);
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
      refetchInterval: (query) =>
        (query.state.data?.data ?? []).some((c) => OPEN_COMMAND_STATES.includes(c.state)) ? OPEN_POLL_MS : false,
    },
  );

  const sender = useCallMutation('commands', 'send', { resources: [COMMANDS] });
  const canceller = useCallMutation('commands', 'cancel', { resources: [COMMANDS] });
  const send = async (body: CommandInput) => {
    const command = await sender.mutateAsync([body]);
    setDialog(null);
    notify(command.state === 'queued' ? 'commands.queuedNow' : 'commands.sentNow', {
      type: command.state === 'queued' ? 'info' : 'success',
    });
  };
  const click = (kind: CommandKind) => {
    if (needsDialog(kind)) setDialog(kind);
    else void send({ deviceId, kind, params: {} } as CommandInput).catch(() => undefined);
  };

  return (
    <Paper sx={{ p: 2 }} data-testid="command-section">
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1.5 }}>
        {t('commands.section')}
      </Typography>
      {canSend && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 2 }} data-testid="command-buttons">
          {COMMAND_KINDS.map((kind) => {
            const Icon = ICONS[kind];
            return (
              <Button
                key={kind}
                size="small"
                variant="outlined"
                color={isDisruptive(kind) ? 'warning' : 'primary'}
                startIcon={<Icon />}
                disabled={sender.isPending}
                onClick={() => click(kind)}
                data-testid={`command-${kind}`}
              >
                {t(`commands.kind.${kind}`)}
              </Button>
            );
          })}
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
                const outcome = [c.message, compact(c.result)].filter(Boolean).join(' · ');
                return (
                  <TableRow key={c.id} data-testid="command-row" data-kind={c.kind} data-state={c.state}>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{t(`commands.kind.${c.kind}`)}</TableCell>
                    <TableCell>
                      <CommandStateChip state={c.state} />
                    </TableCell>
                    <TableCell sx={HIDE_ON_PHONE}>{compact(c.params)}</TableCell>
                    <TableCell sx={HIDE_ON_PHONE}>{c.createdByName}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{format(c.createdAt)}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap', ...HIDE_ON_PHONE }}>{format(c.sentAt)}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap', ...HIDE_ON_PHONE }}>{format(c.ackedAt)}</TableCell>
                    <TableCell
                      title={outcome}
                      sx={{ maxWidth: { xs: 140, md: 360 }, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
                    >
                      {outcome}
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
      <CommandDialog
        kind={dialog}
        deviceId={deviceId}
        deviceName={deviceName}
        currentSatellite={currentSatellite}
        onClose={() => setDialog(null)}
        onSend={send}
      />
    </Paper>
  );
}
