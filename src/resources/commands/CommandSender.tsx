import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import SatelliteAltIcon from '@mui/icons-material/SatelliteAlt';
import TimerIcon from '@mui/icons-material/Timer';
import MedicalInformationIcon from '@mui/icons-material/MedicalInformation';
import SystemUpdateAltIcon from '@mui/icons-material/SystemUpdateAlt';
import SettingsRemoteIcon from '@mui/icons-material/SettingsRemote';
import { useNotify } from 'react-admin';
import { useTranslate } from 'ra-core';
import { COMMAND_KINDS, isDisruptive, type CommandInput, type CommandKind } from '../../domain/commands';
import { useCallMutation, type Invalidates } from '../../data/dataHooks';
import { CommandDialog } from '../../pages/vessel/CommandDialog';
import { COMMANDS_RESOURCE as COMMANDS } from '../../data/resourceNames';

export const COMMAND_ICONS: Record<CommandKind, typeof RestartAltIcon> = {
  reboot: RestartAltIcon,
  repoint: SatelliteAltIcon,
  setInterval: TimerIcon,
  diagnostics: MedicalInformationIcon,
  firmwareCheck: SystemUpdateAltIcon,
};
/** Kinds sent at a click: nothing to choose, nothing disrupted. */
const needsDialog = (kind: CommandKind) => isDisruptive(kind) || kind === 'setInterval';
/** A new command changes the command lists, the vessel page (a reboot under way) and the command rights. */
const INVALIDATES: Invalidates = { resources: [COMMANDS], calls: ['commands', 'vessel'] };
const NAMES_SHOWN = 3;

export interface CommandTarget {
  id: number;
  name: string;
}

/** How the vessels are named in the dialog's title and confirmation: the name, or "3 vessels (A, B, C…)". */
export function useTargetsName(vessels: readonly CommandTarget[]): string {
  const t = useTranslate();
  if (vessels.length === 1) return vessels[0]!.name;
  const names = vessels.slice(0, NAMES_SHOWN).map((v) => v.name);
  if (vessels.length > NAMES_SHOWN) names.push(t('commands.many.more'));
  return t('commands.many.named', { smart_count: vessels.length, names: names.join(', ') });
}

/**
 * Sends a command to one vessel or to many: a button per kind (or one button with a menu of the
 * kinds, `layout="menu"`, in a list's bulk toolbar), the same dialog and confirmation as the vessel
 * page for reboot, re-point and set interval (CommandDialog, DISRUPTIVE_COMMAND_KINDS), the others at a
 * click. To many vessels it sends one command each and sums up in one message which were sent,
 * queued and refused (a sub-user's ungranted vessels are refused by the server).
 */
export function CommandSender({
  vessels,
  currentSatellite,
  layout = 'buttons',
  kinds = COMMAND_KINDS,
  label,
  onSent,
}: {
  vessels: readonly CommandTarget[];
  /** The satellite the re-point dialog starts with. */
  currentSatellite?: string | null;
  layout?: 'buttons' | 'menu';
  /** The kinds offered (all by default); `label` names the button when there is one. */
  kinds?: readonly CommandKind[];
  label?: string;
  onSent?: () => void;
}) {
  const t = useTranslate();
  const notify = useNotify();
  const [dialog, setDialog] = useState<CommandKind | null>(null);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const one = useCallMutation('commands', 'send', INVALIDATES);
  const many = useCallMutation('commands', 'sendToMany', INVALIDATES);
  const name = useTargetsName(vessels.length ? vessels : [{ id: 0, name: '' }]);
  const busy = one.isPending || many.isPending;
  const none = vessels.length === 0;

  const send = async (body: CommandInput) => {
    if (vessels.length === 1) {
      const command = await one.mutateAsync([body]);
      setDialog(null);
      notify(command.state === 'queued' ? 'commands.queuedNow' : 'commands.sentNow', {
        type: command.state === 'queued' ? 'info' : 'success',
      });
    } else {
      const { sent, refused } = await many.mutateAsync([vessels.map((v) => v.id), body]);
      setDialog(null);
      const sentText = t('commands.many.sentMany', { sent: sent.length, queued: sent.filter((c) => c.state === 'queued').length });
      const refusedText = refused.length
        ? t('commands.many.refusedMany', {
            refused: refused.length,
            names: refused.map((r) => `${vessels.find((v) => v.id === r.deviceId)?.name ?? r.deviceId} (${r.message})`).join('; '),
          })
        : '';
      notify([sentText, refusedText].filter(Boolean).join(' · '), { type: refused.length ? 'warning' : 'success' });
    }
    onSent?.();
  };
  const click = (kind: CommandKind) => {
    setAnchor(null);
    if (needsDialog(kind)) setDialog(kind);
    else void send({ deviceId: vessels[0]!.id, kind, params: {} } as CommandInput).catch(() => undefined);
  };

  return (
    <>
      {layout === 'menu' ? (
        <>
          <Button
            size="small"
            startIcon={<SettingsRemoteIcon />}
            disabled={busy || none}
            onClick={(e) => setAnchor(e.currentTarget)}
            aria-haspopup="menu"
            data-testid="bulk-command"
          >
            {t('commands.many.button')}
          </Button>
          <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
            {COMMAND_KINDS.map((kind) => {
              const Icon = COMMAND_ICONS[kind];
              return (
                <MenuItem key={kind} onClick={() => click(kind)} data-testid={`bulk-command-${kind}`}>
                  <ListItemIcon>
                    <Icon fontSize="small" color={isDisruptive(kind) ? 'warning' : 'inherit'} />
                  </ListItemIcon>
                  {t(`commands.kind.${kind}`)}
                </MenuItem>
              );
            })}
          </Menu>
        </>
      ) : (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }} data-testid="command-buttons">
          {kinds.map((kind) => {
            const Icon = COMMAND_ICONS[kind];
            return (
              <Button
                key={kind}
                size="small"
                variant="outlined"
                color={isDisruptive(kind) ? 'warning' : 'primary'}
                startIcon={<Icon />}
                disabled={busy || none}
                onClick={() => click(kind)}
                data-testid={`command-${kind}`}
              >
                {label ?? t(`commands.kind.${kind}`)}
              </Button>
            );
          })}
        </Box>
      )}
      <CommandDialog
        kind={dialog}
        deviceId={vessels[0]?.id ?? 0}
        deviceName={name}
        currentSatellite={currentSatellite}
        onClose={() => setDialog(null)}
        onSend={send}
      />
    </>
  );
}
