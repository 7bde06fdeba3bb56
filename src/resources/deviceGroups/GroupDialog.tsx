import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useCreate, useUpdate } from 'react-admin';
import { useTranslate } from 'ra-core';
import type { DeviceGroup } from '../../domain/device';
import { deviceGroupSchema, updateDeviceGroupSchema } from '../../domain/deviceSchemas';
import { Level } from '../../domain/levels';
import { validate } from '../../domain/validate';
import { useCallQuery } from '../../data/dataHooks';
import { errorData } from '../../data/dataProvider';
import { useClientState } from '../../state/useClientState';

export const GROUPS = 'device/deviceData';

type Errors = Partial<Record<'name' | 'ownerId', string>>;

interface Props {
  group: DeviceGroup | null;
  open: boolean;
  onClose: () => void;
  onSaved: (message: string) => void;
}

/**
 * New group or rename: the name is checked as the user types with the domain's rule (required,
 * at most 32, not containing the reserved names); the server's answer (a duplicate name) lands
 * under the field too. An admin also picks the enterprise the group belongs to. Saved with
 * react-admin's useCreate / useUpdate on the device/deviceData resource.
 */
export function GroupDialog({ group, open, onClose, onSaved }: Props) {
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" data-testid="group-dialog">
      {/* Mounted per opening (and per group), so the form starts from the group's name each time. */}
      {open && <GroupForm key={group?.id ?? 'new'} group={group} onClose={onClose} onSaved={onSaved} />}
    </Dialog>
  );
}

function GroupForm({ group, onClose, onSaved }: Omit<Props, 'open'>) {
  const translate = useTranslate();
  const level = useClientState((s) => s.permissionLevel);
  const admin = level === Level.Admin;
  const { data: owners = [] } = useCallQuery('devices', 'enterprisesWithSubUsers', admin && !group ? [] : null, { staleTime: 60_000 });
  const [create, { isPending: creating }] = useCreate();
  const [update, { isPending: updating }] = useUpdate();
  const [name, setName] = useState(group?.name ?? '');
  const [ownerId, setOwnerId] = useState<string>('');
  const [errors, setErrors] = useState<Errors>({});
  const saving = creating || updating;

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
    if (saving) return;
    const found = check(name, ownerId);
    setErrors(found);
    if (Object.keys(found).length) return;
    try {
      if (group)
        await update(
          GROUPS,
          { id: group.id, data: { name: name.trim() }, previousData: group },
          { mutationMode: 'pessimistic', returnPromise: true },
        );
      else await create(GROUPS, { data: { name: name.trim(), ...(admin ? { ownerId: Number(ownerId) } : {}) } }, { returnPromise: true });
      onSaved(group ? 'devices.groups.renamed' : 'devices.groups.created');
    } catch (error) {
      // Field errors (a duplicate name, a bad owner) go under their field; the catalogue has announced the rest.
      const data = errorData(error);
      if (Array.isArray(data)) {
        const fields: Errors = {};
        for (const item of data as { field?: string; message?: string }[]) {
          if (item?.field === 'name' || item?.field === 'ownerId') fields[item.field] = item.message;
        }
        setErrors(Object.keys(fields).length ? fields : { name: (error as Error).message });
      }
    }
  };

  return (
    <>
      <DialogTitle>{translate(group ? 'devices.groups.rename' : 'devices.groups.add')}</DialogTitle>
      <DialogContent>
        {!group && admin && (
          <TextField
            select
            fullWidth
            margin="dense"
            label={translate('devices.groups.owner')}
            value={ownerId}
            onChange={(e) => {
              setOwnerId(e.target.value);
              setErrors(check(name, e.target.value));
            }}
            error={Boolean(errors.ownerId)}
            helperText={errors.ownerId ? translate(errors.ownerId) : ' '}
            slotProps={{ htmlInput: { 'data-testid': 'group-owner' } }}
          >
            {owners.map((o) => (
              <MenuItem key={o.id} value={String(o.id)}>
                {o.name}
              </MenuItem>
            ))}
          </TextField>
        )}
        <TextField
          fullWidth
          autoFocus
          margin="dense"
          label={translate('devices.groups.name')}
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            setErrors(check(e.target.value, ownerId));
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') void save();
          }}
          error={Boolean(errors.name)}
          helperText={errors.name ? translate(errors.name) : ' '}
          slotProps={{ htmlInput: { 'data-testid': 'group-name', maxLength: 64 } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('console.dialog.cancel')}</Button>
        <Button variant="contained" onClick={save} disabled={saving} data-testid="group-save">
          {translate('console.action.save')}
        </Button>
      </DialogActions>
    </>
  );
}
