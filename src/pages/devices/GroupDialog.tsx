import { useEffect, useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTranslate } from 'react-admin';
import { ApiError } from '../../api';
import { devicesApi } from '../../api/devicesApi';
import type { DeviceGroup } from '../../domain/device';
import { deviceGroupSchema, updateDeviceGroupSchema } from '../../domain/deviceSchemas';
import { Level } from '../../domain/levels';
import { validate } from '../../domain/validate';
import { useClientState } from '../../state/useClientState';
import { useOwnerTree } from '../../resources/devices/useOwnerTree';

type Errors = Partial<Record<'name' | 'ownerId', string>>;

/**
 * New group or rename: the name is checked as the user types with the domain's rule (required,
 * at most 32, not containing the reserved names); the server's answer (a duplicate name) lands
 * under the field too. An admin also picks the enterprise the group belongs to.
 */
export function GroupDialog({ group, open, onClose, onSaved }: { group: DeviceGroup | null; open: boolean; onClose: () => void; onSaved: (message: string) => void }) {
  const translate = useTranslate();
  const level = useClientState((s) => s.permissionLevel);
  const admin = level === Level.Admin;
  const { owners } = useOwnerTree(admin && open);
  const [name, setName] = useState('');
  const [ownerId, setOwnerId] = useState<string>('');
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    setName(group?.name ?? '');
    setOwnerId('');
    setErrors({});
  }, [open, group]);

  const check = (nextName: string, nextOwner: string): Errors => {
    const result = group
      ? validate(updateDeviceGroupSchema, { id: group.id, name: nextName })
      : validate(deviceGroupSchema, { name: nextName, ownerId: nextOwner === '' ? undefined : Number(nextOwner) });
    const found: Errors = {};
    if (!result.ok) for (const e of result.errors) if (e.field === 'name' || e.field === 'ownerId') found[e.field] = e.message;
    if (!group && admin && nextOwner === '') found.ownerId = 'validation.required';
    return found;
  };

  const save = async () => {
    const found = check(name, ownerId);
    setErrors(found);
    if (Object.keys(found).length) return;
    setSaving(true);
    try {
      if (group) await devicesApi.renameGroup(group.id, name.trim());
      else await devicesApi.addGroup(name.trim(), admin ? Number(ownerId) : undefined);
      onSaved(group ? 'devices.groups.renamed' : 'devices.groups.created');
    } catch (error) {
      if (error instanceof ApiError && Array.isArray(error.data)) {
        const found: Errors = {};
        for (const item of error.data as { field?: string; message?: string }[]) {
          if (item?.field === 'name' || item?.field === 'ownerId') found[item.field] = item.message;
        }
        setErrors(Object.keys(found).length ? found : { name: error.msg });
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" data-testid="group-dialog">
      <DialogTitle>{translate(group ? 'devices.groups.rename' : 'devices.groups.add')}</DialogTitle>
      <DialogContent>
        {!group && admin && (
          <TextField select fullWidth margin="dense" label={translate('devices.groups.owner')} value={ownerId}
            onChange={(e) => { setOwnerId(e.target.value); setErrors(check(name, e.target.value)); }}
            error={Boolean(errors.ownerId)} helperText={errors.ownerId ? translate(errors.ownerId) : ' '}
            slotProps={{ htmlInput: { 'data-testid': 'group-owner' } }}>
            {owners.map((o) => <MenuItem key={o.id} value={String(o.id)}>{o.name}</MenuItem>)}
          </TextField>
        )}
        <TextField fullWidth autoFocus margin="dense" label={translate('devices.groups.name')} value={name}
          onChange={(e) => { setName(e.target.value); setErrors(check(e.target.value, ownerId)); }}
          onKeyDown={(e) => { if (e.key === 'Enter') void save(); }}
          error={Boolean(errors.name)} helperText={errors.name ? translate(errors.name) : ' '}
          slotProps={{ htmlInput: { 'data-testid': 'group-name', maxLength: 64 } }} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('console.dialog.cancel')}</Button>
        <Button variant="contained" onClick={save} disabled={saving} data-testid="group-save">{translate('console.action.save')}</Button>
      </DialogActions>
    </Dialog>
  );
}
