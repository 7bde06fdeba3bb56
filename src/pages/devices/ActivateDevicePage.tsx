import { useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import SearchIcon from '@mui/icons-material/Search';
import { useGetOne, useNotify } from 'react-admin';
import { useTranslate } from 'ra-core';
import { useCallMutation, useCallQuery } from '../../data/dataHooks';
import type { Device } from '../../domain/device';
import { DEVICE_KIND_KEYS, isDeviceKind } from '../../domain/deviceKinds';
import type { User } from '../../domain/user';
import { useDateFormatter } from '../../format/useDateFormatter';
import { ActivationChip } from '../../resources/devices/DeviceList';
import { DeviceStatusIcon } from '../../resources/devices/DeviceStatusIcon';
import { subUsersOf, useOwnerTree } from '../../resources/devices/useOwnerTree';

/** Who activated the device, by name (the device carries the admin's id). */
function ActivatedBy({ id }: { id: number | null }) {
  const { data } = useGetOne<User>('system/user', { id: id! }, { enabled: id !== null });
  if (id === null) return null;
  return <>{data?.name ?? `#${id}`}</>;
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ display: 'contents' }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body2" component="div">
        {children}
      </Typography>
    </Box>
  );
}

function SecretDialog({ secret, onClose }: { secret: string | null; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret ?? '');
      notify('devices.activation.copied', { type: 'success' });
    } catch {
      /* no clipboard (plain http): the text stays selectable */
    }
  };
  return (
    <Dialog open={secret !== null} maxWidth="sm" fullWidth data-testid="secret-dialog">
      <DialogTitle>{translate('devices.activation.secretTitle')}</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2 }}>
          {translate('devices.activation.secretOnce')}
        </Alert>
        <TextField
          fullWidth
          value={secret ?? ''}
          slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'device-secret', style: { fontFamily: 'monospace' } } }}
          onFocus={(e) => e.target.select()}
        />
      </DialogContent>
      <DialogActions>
        <Button startIcon={<ContentCopyIcon />} onClick={copy} data-testid="secret-copy">
          {translate('devices.activation.copy')}
        </Button>
        <Button variant="contained" onClick={onClose} data-testid="secret-done">
          {translate('devices.activation.done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * Activation > ActivateDevice (level 1): find a device by deviceNum or SN, activate it for an
 * enterprise (and sub-user), showing the issued device secret once, or deactivate it after a
 * confirmation. Who activated it and when are shown.
 */
export default function ActivateDevicePage() {
  const translate = useTranslate();
  const [key, setKey] = useState('');
  // The key last looked up: the device is that lookup's answer (refetched after a change).
  const [sought, setSought] = useState<string | null>(null);
  const found = useCallQuery('devices', 'findForActivation', sought === null ? null : [sought]);
  const device = found.isError ? null : (found.data ?? null);
  const [secret, setSecret] = useState<string | null>(null);
  const find = () => {
    const wanted = key.trim();
    if (!wanted) return;
    if (wanted === sought) void found.refetch();
    else setSought(wanted);
  };

  return (
    <Box sx={{ maxWidth: 760 }} data-testid="activate-device">
      <Typography variant="h6" component="h1" sx={{ mb: 2 }}>
        {translate('devices.activation.title')}
      </Typography>
      <Paper sx={{ p: 2, mb: 2 }}>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {translate('devices.activation.hint')}
        </Typography>
        <Box
          component="form"
          onSubmit={(e) => {
            e.preventDefault();
            find();
          }}
          sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}
        >
          <TextField
            size="small"
            label={translate('devices.activation.key')}
            value={key}
            onChange={(e) => setKey(e.target.value)}
            sx={{ flex: 1, minWidth: 220 }}
            slotProps={{ htmlInput: { 'data-testid': 'activation-key', maxLength: 64 } }}
          />
          <Button
            type="submit"
            variant="contained"
            startIcon={<SearchIcon />}
            disabled={found.isFetching || !key.trim()}
            data-testid="activation-find"
          >
            {translate('devices.activation.find')}
          </Button>
        </Box>
        {found.isError && !found.isFetching && (
          <Alert severity="warning" sx={{ mt: 2 }} data-testid="activation-not-found">
            {translate('error.deviceNotFound')}
          </Alert>
        )}
      </Paper>
      {device && (
        <DevicePanel
          key={`${device.id}:${device.activated}:${device.ownerId ?? ''}:${device.ownerSubId ?? ''}`}
          device={device}
          busy={found.isFetching}
          onSecret={setSecret}
        />
      )}
      <SecretDialog secret={secret} onClose={() => setSecret(null)} />
    </Box>
  );
}

/** The device found, with activation for an owner (and sub-owner) or deactivation after a confirmation. */
function DevicePanel({ device, busy, onSecret }: { device: Device; busy: boolean; onSecret: (secret: string) => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const format = useDateFormatter();
  const { owners } = useOwnerTree();
  const [ownerId, setOwnerId] = useState(device.ownerId ? String(device.ownerId) : '');
  const [ownerSubId, setOwnerSubId] = useState(String(device.ownerSubId ?? 0));
  const [confirm, setConfirm] = useState(false);
  // A change refetches the lookup and every device list and view; a refusal is shown by the error catalogue.
  const changes = { resources: ['system/deviceManagement'], calls: ['devices', 'vessel', 'monitoring', 'history'] } as const;
  const activate = useCallMutation('devices', 'activate', changes, {
    onSuccess: (result) => {
      onSecret(result.secret);
      notify('devices.activation.activatedOk', { type: 'success' });
    },
  });
  const deactivate = useCallMutation('devices', 'deactivate', changes, {
    onSuccess: () => notify('devices.activation.deactivatedOk', { type: 'success' }),
  });
  const working = busy || activate.isPending || deactivate.isPending;

  return (
    <Paper sx={{ p: 2 }} data-testid="activation-device">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 2 }}>
        <DeviceStatusIcon kind={device.deviceKind} status={device.status} />
        <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
          {device.name}
        </Typography>
        <ActivationChip record={device} />
      </Box>
      <Box sx={{ display: 'grid', gridTemplateColumns: 'minmax(110px, max-content) 1fr', columnGap: 3, rowGap: 0.75, mb: 2 }}>
        <Detail label={translate('deviceField.deviceNum')}>{device.deviceNum ?? ''}</Detail>
        <Detail label={translate('deviceField.deviceSn')}>{device.deviceSn}</Detail>
        <Detail label={translate('deviceField.deviceKind')}>
          {isDeviceKind(device.deviceKind) ? translate(DEVICE_KIND_KEYS[device.deviceKind]) : device.deviceKind} · {device.deviceType}
        </Detail>
        <Detail label={translate('deviceField.ownerId')}>{device.ownerName ?? ''}</Detail>
        <Detail label={translate('deviceField.ownerSubId')}>{device.ownerSubName ?? ''}</Detail>
        {device.activated && (
          <Detail label={translate('devices.activation.activatedBy')}>
            <span data-testid="activated-by">
              <ActivatedBy id={device.activatedBy} />
            </span>
          </Detail>
        )}
        {device.activated && (
          <Detail label={translate('devices.activation.activatedAt')}>
            <span data-testid="activated-at">{format(device.activatedAt)}</span>
          </Detail>
        )}
      </Box>
      {device.activated ? (
        <Button variant="outlined" color="error" disabled={working} onClick={() => setConfirm(true)} data-testid="deactivate">
          {translate('devices.activation.deactivate')}
        </Button>
      ) : (
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
          <TextField
            select
            size="small"
            label={translate('devices.activation.owner')}
            value={ownerId}
            sx={{ minWidth: 200 }}
            onChange={(e) => {
              setOwnerId(e.target.value);
              setOwnerSubId('0');
            }}
            slotProps={{ htmlInput: { 'data-testid': 'activation-owner' } }}
          >
            {owners.map((o) => (
              <MenuItem key={o.id} value={String(o.id)}>
                {o.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            size="small"
            label={translate('devices.activation.subOwner')}
            value={ownerSubId}
            sx={{ minWidth: 200 }}
            onChange={(e) => setOwnerSubId(e.target.value)}
            slotProps={{ htmlInput: { 'data-testid': 'activation-sub-owner' } }}
          >
            <MenuItem value="0">{translate('devices.form.noSubUser')}</MenuItem>
            {subUsersOf(owners, ownerId).map((s) => (
              <MenuItem key={s.id} value={String(s.id)}>
                {s.name}
              </MenuItem>
            ))}
          </TextField>
          <Button
            variant="contained"
            disabled={working || !ownerId}
            onClick={() => activate.mutate([device.id, Number(ownerId), Number(ownerSubId)])}
            data-testid="activate"
          >
            {translate('devices.activation.activate')}
          </Button>
        </Box>
      )}
      <Dialog open={confirm} onClose={() => setConfirm(false)} data-testid="deactivate-dialog">
        <DialogContent>{translate('devices.activation.confirmDeactivate', { name: device.name })}</DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirm(false)}>{translate('console.dialog.cancel')}</Button>
          <Button
            variant="contained"
            color="error"
            onClick={() => {
              setConfirm(false);
              deactivate.mutate([device.id]);
            }}
            data-testid="deactivate-confirm"
          >
            {translate('console.dialog.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </Paper>
  );
}
