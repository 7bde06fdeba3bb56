import { useState } from 'react';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import { useTranslate } from 'ra-core';
import { useCallMutation, useCallQuery } from '../../data/dataHooks';
import type { User } from '../../domain/user';
import { updateUserSchema } from '../../domain/userSchemas';
import { validate } from '../../domain/validate';
import { useDateFormatter } from '../../format/useDateFormatter';
import { setState } from '../../state/clientState';
import { QuietHoursCard } from './QuietHoursCard';

const FIELDS = ['nickname', 'department', 'email', 'company', 'signature'] as const;
type Form = Record<(typeof FIELDS)[number] | 'sex', string>;

const formOf = (u: User): Form => ({
  nickname: u.nickname ?? '',
  department: u.department ?? '',
  email: u.email ?? '',
  company: u.company ?? '',
  signature: u.signature ?? '',
  sex: u.sex ?? '',
});

/** Basic information (/personal/info): the caller's own profile (users.getSelf), saved with updateUser, and its quiet hours for alarm mails. */
export default function InfoPage() {
  const { data: user } = useCallQuery('users', 'getSelf', []);
  if (!user) return null;
  // A fresh profile from the server (after a save) starts the form again from it.
  return (
    <>
      <InfoForm key={JSON.stringify(formOf(user))} user={user} />
      <QuietHoursCard />
    </>
  );
}

function InfoForm({ user }: { user: User }) {
  const t = useTranslate();
  const notify = useNotify();
  const format = useDateFormatter();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<Form>(() => formOf(user));
  const [errors, setErrors] = useState<Record<string, string>>({});
  // The profile shows in the user list, in the user menu (client state) and in react-admin's identity.
  const update = useCallMutation(
    'users',
    'updateUser',
    { resources: ['system/user'], calls: ['users'] },
    {
      onSuccess: async (saved) => {
        setState({ name: saved.name, nickName: saved.nickname });
        await queryClient.invalidateQueries({ queryKey: ['auth', 'getIdentity'] });
        notify('console.action.saved', { type: 'success' });
      },
      // A refusal is shown by the error catalogue.
    },
  );
  const label = (field: string) => t(`resources.system/user.fields.${field}`);
  const save = () => {
    const body = { id: user.id, ...Object.fromEntries(Object.entries(form).map(([k, v]) => [k, v === '' ? null : v])) };
    const checked = validate(updateUserSchema, body);
    if (!checked.ok) return setErrors(Object.fromEntries(checked.errors.map((e) => [e.field, e.message])));
    setErrors({});
    update.mutate([body as Partial<User> & { id: number }]);
  };
  return (
    <Paper
      sx={{ p: 3, maxWidth: 560 }}
      component="form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <Typography variant="h6" component="h1" sx={{ mb: 2 }}>
        {t('menu.info')}
      </Typography>
      <Stack spacing={1.5}>
        <TextField label={label('name')} value={user.name} slotProps={{ htmlInput: { readOnly: true } }} />
        <TextField
          label={label('permissionLevel')}
          value={t(`console.level.${user.permissionLevel}`)}
          slotProps={{ htmlInput: { readOnly: true } }}
        />
        <TextField label={label('createdAt')} value={format(user.createdAt)} slotProps={{ htmlInput: { readOnly: true } }} />
        {FIELDS.map((field) => (
          <TextField
            key={field}
            label={label(field)}
            value={form[field]}
            multiline={field === 'signature'}
            onChange={(e) => setForm({ ...form, [field]: e.target.value })}
            error={Boolean(errors[field])}
            helperText={errors[field] ? t(errors[field]) : undefined}
          />
        ))}
        <TextField select label={label('sex')} value={form.sex} onChange={(e) => setForm({ ...form, sex: e.target.value })}>
          {['male', 'female', 'unknown'].map((s) => (
            <MenuItem key={s} value={s}>
              {t(`console.sex.${s}`)}
            </MenuItem>
          ))}
        </TextField>
        <Button type="submit" variant="contained" disabled={update.isPending} sx={{ alignSelf: 'flex-start' }}>
          {t('console.action.save')}
        </Button>
      </Stack>
    </Paper>
  );
}
