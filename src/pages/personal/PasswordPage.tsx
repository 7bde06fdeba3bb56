import { useState } from 'react';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useNotify } from 'react-admin';
import { useCallMutation } from '../../data/dataHooks';
import { passwordChangeSchema } from '../../domain/userSchemas';
import { validate } from '../../domain/validate';
import { useTranslate } from 'ra-core';
import { getState } from '../../state/clientState';
import { PasswordField } from '../../layout/PasswordField';

/** Password change (/personal/password): 6-18 characters, the confirmation must match. */
export default function PasswordPage() {
  const t = useTranslate();
  const notify = useNotify();
  const [values, setValues] = useState({ password: '', repassword: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  // A password change makes nothing shown here stale; a refusal is shown by the error catalogue.
  const change = useCallMutation(
    'users',
    'updatePasswordSelf',
    { calls: [] },
    {
      onSuccess: () => {
        setValues({ password: '', repassword: '' });
        notify('console.action.passwordChanged', { type: 'success' });
      },
    },
  );
  const submit = () => {
    const checked = validate(passwordChangeSchema, values);
    if (!checked.ok) return setErrors(Object.fromEntries(checked.errors.map((e) => [e.field, e.message])));
    setErrors({});
    change.mutate([getState().id!, checked.value.password]);
  };
  return (
    <Paper
      sx={{ p: 3, maxWidth: 480 }}
      component="form"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      noValidate
    >
      <Typography variant="h6" component="h1" sx={{ mb: 2 }}>
        {t('menu.password')}
      </Typography>
      <Stack>
        <PasswordField
          label={t('console.password.newPassword')}
          value={values.password}
          onChange={(password) => setValues((v) => ({ ...v, password }))}
          error={errors.password && t(errors.password)}
          testId="new-password"
        />
        <PasswordField
          label={t('console.password.confirmPassword')}
          value={values.repassword}
          onChange={(repassword) => setValues((v) => ({ ...v, repassword }))}
          error={errors.repassword && t(errors.repassword)}
          testId="confirm-password"
        />
        <Button
          type="submit"
          variant="contained"
          disabled={change.isPending}
          sx={{ alignSelf: 'flex-start' }}
          data-testid="password-submit"
        >
          {t('console.action.save')}
        </Button>
      </Stack>
    </Paper>
  );
}
