import { useState } from 'react';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useNotify } from 'react-admin';
import { useTranslate } from 'ra-core';
import { useCallMutation, useCallQuery } from '../../data/dataHooks';
import { quietHoursSchema } from '../../domain/contactPoints';
import { validate } from '../../domain/validate';
import type { QuietHours } from '../../api/supportApi';

/**
 * The caller's own quiet hours for the alarm mails rules send it (docs/api.md, "Notifications"),
 * on the Basic info page of every level: what is not critical waits for their end.
 */
export function QuietHoursCard() {
  const { data } = useCallQuery('support', 'quietHours', []);
  if (!data) return null;
  return <QuietHoursForm key={`${data.quietFrom}-${data.quietTo}`} initial={data} />;
}

function QuietHoursForm({ initial }: { initial: QuietHours }) {
  const t = useTranslate();
  const notify = useNotify();
  const [form, setForm] = useState({ quietFrom: initial.quietFrom ?? '', quietTo: initial.quietTo ?? '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useCallMutation(
    'support',
    'setQuietHours',
    { calls: ['support'] },
    { onSuccess: () => notify(t('support.quietHours.saved'), { type: 'success' }) },
  );
  const body = { quietFrom: form.quietFrom || null, quietTo: form.quietTo || null };
  const submit = () => {
    const checked = validate(quietHoursSchema, body);
    setErrors(checked.ok ? {} : Object.fromEntries(checked.errors.map((e) => [e.field, e.message])));
    if (checked.ok) save.mutate([body]);
  };
  return (
    <Paper
      sx={{ p: 3, maxWidth: 560, mt: 2 }}
      component="form"
      noValidate
      data-testid="quiet-hours"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <Typography variant="h6" component="h2">
        {t('support.quietHours.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('support.quietHours.hint')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'flex-start' } }}>
        {(['quietFrom', 'quietTo'] as const).map((field) => (
          <TextField
            key={field}
            label={t(`support.quietHours.${field === 'quietFrom' ? 'from' : 'to'}`)}
            placeholder="22:00"
            value={form[field]}
            onChange={(e) => setForm({ ...form, [field]: e.target.value.trim() })}
            error={Boolean(errors[field])}
            helperText={errors[field] ? t(errors[field]) : ' '}
            slotProps={{ htmlInput: { 'data-testid': `quiet-${field}`, inputMode: 'numeric', maxLength: 5 } }}
          />
        ))}
        <Button type="submit" variant="contained" disabled={save.isPending} sx={{ alignSelf: 'flex-start', mt: { sm: '6px' } }}>
          {t('console.action.save')}
        </Button>
      </Stack>
    </Paper>
  );
}
