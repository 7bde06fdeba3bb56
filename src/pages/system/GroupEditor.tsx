import { useState } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Confirm, useNotify } from 'react-admin';
import type { PermissionGroup } from '../../api/supportApi';
import { useCallMutation } from '../../data/dataHooks';
import { permissionGroupSchema } from '../../domain/permissionGroups';
import { validate } from '../../domain/validate';
import { useTranslate } from 'ra-core';
import { PermissionGrid } from './PermissionGrid';

/** A permission group as the editor holds it; a new one has no id. */
export interface Draft {
  id?: number;
  name: string;
  description: string;
  permissions: string[];
}

/** One group's form; it starts from the stored group (the page remounts it when that changes). */
export function GroupEditor({ draft, onSaved, onDeleted }: { draft: Draft; onSaved: (g: PermissionGroup) => void; onDeleted: () => void }) {
  const t = useTranslate();
  const notify = useNotify();
  const [form, setForm] = useState<Draft>(draft);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [confirm, setConfirm] = useState(false);
  // Both refetch the groups (and each user's groups) before going on; a refusal (a duplicate name: code 9) is shown by the catalogue.
  const saveGroup = useCallMutation(
    'support',
    'saveGroup',
    { calls: ['support'] },
    {
      onSuccess: (saved) => {
        notify(t('support.permission.saved'), { type: 'success' });
        onSaved(saved);
      },
    },
  );
  const deleteGroup = useCallMutation(
    'support',
    'deleteGroup',
    { calls: ['support'] },
    {
      onSuccess: () => {
        notify(t('support.permission.deleted'), { type: 'success' });
        onDeleted();
      },
    },
  );
  const save = () => {
    const checked = validate(permissionGroupSchema, form);
    if (!checked.ok) return setErrors(Object.fromEntries(checked.errors.map((e) => [e.field, e.message])));
    setErrors({});
    saveGroup.mutate([{ ...checked.value, id: form.id }]);
  };
  const remove = () => {
    setConfirm(false);
    if (form.id) deleteGroup.mutate([form.id]);
  };
  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          label={t('support.permission.groupName')}
          value={form.name}
          required
          onChange={(e) => setForm({ ...form, name: e.target.value })}
          error={Boolean(errors.name)}
          helperText={errors.name ? t(errors.name) : ' '}
          slotProps={{ htmlInput: { 'data-testid': 'perm-name', maxLength: 32 } }}
          sx={{ minWidth: 220 }}
        />
        <TextField
          label={t('support.permission.description')}
          value={form.description}
          onChange={(e) => setForm({ ...form, description: e.target.value })}
          helperText=" "
          sx={{ flex: 1 }}
          slotProps={{ htmlInput: { maxLength: 200 } }}
        />
      </Stack>
      <PermissionGrid value={form.permissions} onChange={(permissions) => setForm({ ...form, permissions })} />
      <Typography variant="caption" color="text.secondary">
        ✓ {t('support.permission.enforcedNote')}
      </Typography>
      <Stack direction="row" spacing={1}>
        <Button variant="contained" onClick={save} disabled={saveGroup.isPending} data-testid="perm-save">
          {t('support.permission.save')}
        </Button>
        {form.id && (
          <Button color="error" onClick={() => setConfirm(true)} disabled={deleteGroup.isPending}>
            {t('support.permission.delete')}
          </Button>
        )}
      </Stack>
      <Confirm
        isOpen={confirm}
        title={t('support.permission.delete')}
        content={t('support.permission.deleteConfirm', { name: form.name })}
        onConfirm={remove}
        onClose={() => setConfirm(false)}
      />
    </Stack>
  );
}
