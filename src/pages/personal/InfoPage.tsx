import { useEffect, useState } from 'react';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useNotify } from 'react-admin';
import { usersApi } from '../../api/usersApi';
import type { User } from '../../domain/user';
import { updateUserSchema } from '../../domain/userSchemas';
import { validate } from '../../domain/validate';
import { useDateFormatter } from '../../format/useDateFormatter';
import { useTranslate } from 'ra-core';
import { loadUser } from '../../state/session';

const FIELDS = ['nickname', 'department', 'email', 'company', 'signature'] as const;
type Form = Record<(typeof FIELDS)[number] | 'sex', string>;

/** Basic information (/personal/info): the caller's own profile, saved with updateUser. */
export default function InfoPage() {
  const t = useTranslate();
  const notify = useNotify();
  const format = useDateFormatter();
  const [user, setUser] = useState<User | null>(null);
  const [form, setForm] = useState<Form | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  useEffect(() => {
    void usersApi.getSelf().then((u) => {
      setUser(u);
      setForm({ nickname: u.nickname ?? '', department: u.department ?? '', email: u.email ?? '', company: u.company ?? '', signature: u.signature ?? '', sex: u.sex ?? '' });
    }, () => undefined);
  }, []);
  if (!user || !form) return null;
  const label = (field: string) => t(`resources.system/user.fields.${field}`);
  const save = async () => {
    const body = { id: user.id, ...Object.fromEntries(Object.entries(form).map(([k, v]) => [k, v === '' ? null : v])) };
    const checked = validate(updateUserSchema, body);
    if (!checked.ok) return setErrors(Object.fromEntries(checked.errors.map((e) => [e.field, e.message])));
    setErrors({});
    try {
      await usersApi.updateUser(body as Partial<User> & { id: number });
      await loadUser();
      notify('console.action.saved', { type: 'success' });
    } catch {
      /* shown by the catalogue */
    }
  };
  return (
    <Paper sx={{ p: 3, maxWidth: 560 }} component="form" noValidate onSubmit={(e) => { e.preventDefault(); void save(); }}>
      <Typography variant="h6" component="h1" sx={{ mb: 2 }}>{t('menu.info')}</Typography>
      <Stack spacing={1.5}>
        <TextField label={label('name')} value={user.name} slotProps={{ htmlInput: { readOnly: true } }} />
        <TextField label={label('permissionLevel')} value={t(`console.level.${user.permissionLevel}`)} slotProps={{ htmlInput: { readOnly: true } }} />
        <TextField label={label('createdAt')} value={format(user.createdAt)} slotProps={{ htmlInput: { readOnly: true } }} />
        {FIELDS.map((field) => (
          <TextField key={field} label={label(field)} value={form[field]} multiline={field === 'signature'} onChange={(e) => setForm({ ...form, [field]: e.target.value })} error={Boolean(errors[field])} helperText={errors[field] ? t(errors[field]) : undefined} />
        ))}
        <TextField select label={label('sex')} value={form.sex} onChange={(e) => setForm({ ...form, sex: e.target.value })}>
          {['male', 'female', 'unknown'].map((s) => <MenuItem key={s} value={s}>{t(`console.sex.${s}`)}</MenuItem>)}
        </TextField>
        <Button type="submit" variant="contained" sx={{ alignSelf: 'flex-start' }}>{t('console.action.save')}</Button>
      </Stack>
    </Paper>
  );
}
