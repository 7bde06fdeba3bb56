import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Checkbox from '@mui/material/Checkbox';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useGetList, useNotify, useTranslate } from 'react-admin';
import { useCallMutation } from '../../data/dataHooks';
import { errorCode, errorData } from '../../data/dataProvider';
import { ErrorCode } from '../../domain/errorCodes';
import { isDowngrade, rolloutSchema, type FirmwarePackage } from '../../domain/firmware';
import type { Candidate } from '../../api/firmwareApi';
import { validate } from '../../domain/validate';
import { CandidatePicker } from './CandidatePicker';
import { useCandidates } from './useCandidates';

/**
 * A new rollout of a package: the devices of its type and model (chosen one by one, across
 * pages) or a device group, and how many may update at a time.
 */
export function RolloutDialog({
  firmware,
  open,
  onClose,
  onStarted,
}: {
  firmware: FirmwarePackage;
  open: boolean;
  onClose: () => void;
  onStarted: () => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const fullScreen = useMediaQuery('(max-width:600px)');
  const [mode, setMode] = useState<'devices' | 'group'>('devices');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [groupId, setGroupId] = useState<number | ''>('');
  const [maxConcurrent, setMaxConcurrent] = useState('10');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const candidates = useCandidates(firmware.id, open, search, page);
  // Devices that would go back to an older version: seen in the candidates, or named by the server (code 15).
  const [olderSeen, setOlderSeen] = useState<Map<number, string>>(new Map());
  const [olderFromServer, setOlderFromServer] = useState<{ id: number; name: string }[]>([]);
  const [downgradeConfirmed, setDowngradeConfirmed] = useState(false);
  useEffect(() => {
    const older = (candidates?.list ?? []).filter((c: Candidate) => isDowngrade(firmware.version, c.aduVersion));
    if (older.length) setOlderSeen((m) => new Map([...m, ...older.map((c) => [c.id, c.name] as const)]));
  }, [candidates, firmware.version]);
  const downgrades =
    mode === 'devices' ? [...selected].filter((id) => olderSeen.has(id)).map((id) => ({ id, name: olderSeen.get(id)! })) : olderFromServer;
  // The device groups are the device/deviceData resource's list (without its virtual groups, ids -1 and 0).
  const groups = (
    useGetList<{ id: number; name: string; ownerName: string | null }>(
      'device/deviceData',
      { pagination: { page: 1, perPage: 1000 }, sort: { field: 'name', order: 'ASC' } },
      { enabled: open },
    ).data ?? []
  ).filter((g) => g.id > 0);
  // A started rollout: the package (its status), its rollouts and the candidates' states are read again.
  const startRollout = useCallMutation('firmware', 'startRollout', { resources: ['system/firmware'] });
  const busy = startRollout.isPending;

  // Each opening starts afresh (local state only; the data above is the queries').
  useEffect(() => {
    if (!open) return;
    setSelected(new Set());
    setErrors({});
    setFailure(null);
    setOlderFromServer([]);
    setDowngradeConfirmed(false);
  }, [open]);

  const start = async () => {
    const body = {
      firmwareId: firmware.id,
      maxConcurrent: maxConcurrent as unknown as number,
      ...(mode === 'devices' ? { deviceIds: [...selected] } : { groupId: groupId === '' ? null : groupId }),
      ...(downgrades.length && downgradeConfirmed ? { allowDowngrade: true } : {}),
    };
    if (downgrades.length && !downgradeConfirmed) return;
    const checked = validate(rolloutSchema, body);
    if (!checked.ok) {
      setErrors(
        Object.fromEntries(
          checked.errors.map((e) => [
            e.field === 'groupId' || (mode === 'group' && e.field === 'deviceIds') ? 'groupId' : e.field,
            translate(e.message),
          ]),
        ),
      );
      return;
    }
    setErrors({});
    setFailure(null);
    try {
      await startRollout.mutateAsync([checked.value as never]);
      notify('firmware.rollout.started', { type: 'success' });
      onStarted();
    } catch (error) {
      const data = errorData(error);
      if (errorCode(error) === ErrorCode.FirmwareDowngrade && Array.isArray(data)) {
        // The server found devices with a newer version (a group, or versions changed): ask first.
        setOlderFromServer(data as { id: number; name: string }[]);
        setDowngradeConfirmed(false);
        setFailure(null);
        return;
      }
      if (errorCode(error) !== undefined) {
        const fieldMessages = Array.isArray(data)
          ? (data as { field?: string; message?: string }[]).filter((e) => e?.field && e.message)
          : [];
        setFailure(fieldMessages.length ? fieldMessages.map((e) => e.message).join('; ') : (error as Error).message);
      } else setFailure((error as Error).message);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      fullWidth
      maxWidth="md"
      fullScreen={fullScreen}
      data-testid="fw-rollout-dialog"
    >
      <DialogTitle>{translate('firmware.rollout.dialogTitle', { model: firmware.model, version: firmware.version })}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <RadioGroup row value={mode} onChange={(e) => setMode(e.target.value as 'devices' | 'group')}>
            <FormControlLabel value="devices" control={<Radio size="small" />} label={translate('firmware.rollout.byDevices')} />
            <FormControlLabel value="group" control={<Radio size="small" />} label={translate('firmware.rollout.byGroup')} />
          </RadioGroup>
          {mode === 'devices' ? (
            <CandidatePicker
              firmware={firmware}
              candidates={candidates}
              search={search}
              onSearch={(value) => {
                setSearch(value);
                setPage(0);
              }}
              page={page}
              onPage={setPage}
              selected={selected}
              setSelected={setSelected}
              error={errors.deviceIds}
            />
          ) : (
            <TextField
              select
              size="small"
              label={translate('firmware.rollout.group')}
              value={groupId}
              onChange={(e) => {
                setGroupId(Number(e.target.value));
                setOlderFromServer([]);
                setDowngradeConfirmed(false);
              }}
              error={!!errors.groupId}
              helperText={errors.groupId}
              sx={{ maxWidth: 400 }}
              slotProps={{ htmlInput: { 'data-testid': 'fw-group' } }}
            >
              {groups.map((g) => (
                <MenuItem key={g.id} value={g.id}>
                  {g.ownerName ? `${g.name} (${g.ownerName})` : g.name}
                </MenuItem>
              ))}
            </TextField>
          )}
          <TextField
            size="small"
            type="number"
            label={translate('firmware.rollout.maxConcurrent')}
            value={maxConcurrent}
            onChange={(e) => setMaxConcurrent(e.target.value)}
            error={!!errors.maxConcurrent}
            helperText={errors.maxConcurrent ?? translate('firmware.rollout.maxConcurrentHint')}
            sx={{ maxWidth: 400 }}
            slotProps={{ htmlInput: { min: 1, max: 1000, 'data-testid': 'fw-max-concurrent' } }}
          />
          {downgrades.length > 0 && (
            <Alert severity="warning" data-testid="fw-downgrade-warning">
              {translate('firmware.rollout.downgradeWarning', {
                smart_count: downgrades.length,
                version: firmware.version,
                devices: downgrades
                  .slice(0, 5)
                  .map((d) => d.name)
                  .join(', ')
                  .concat(downgrades.length > 5 ? ', …' : ''),
              })}
              <FormControlLabel
                sx={{ display: 'flex', mt: 0.5 }}
                control={
                  <Checkbox
                    size="small"
                    checked={downgradeConfirmed}
                    onChange={(e) => setDowngradeConfirmed(e.target.checked)}
                    slotProps={{ input: { 'data-testid': 'fw-confirm-downgrade' } as object }}
                  />
                }
                label={translate('firmware.rollout.confirmDowngrade', { version: firmware.version })}
              />
            </Alert>
          )}
          {failure && (
            <Alert severity="error" data-testid="fw-rollout-error">
              {failure}
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {translate('ra.action.cancel')}
        </Button>
        <Button
          variant="contained"
          onClick={() => void start()}
          disabled={busy || (downgrades.length > 0 && !downgradeConfirmed)}
          data-testid="fw-rollout-start"
        >
          {translate('firmware.rollout.start')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
