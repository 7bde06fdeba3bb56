import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import LockResetIcon from '@mui/icons-material/LockReset';
import { useNotify, useRecordContext, useTranslate } from 'react-admin';
import { useCallMutation } from '../../data/dataHooks';
import { passwordChangeSchema } from '../../domain/userSchemas';
import { validate } from '../../domain/validate';
import { PasswordField } from '../../layout/PasswordField';

/** Row action of the user list: sets a new password for a managed user (updatePassword). */
export function ResetPasswordButton() {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState({ password: '', repassword: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  // Nothing shown goes stale: a password is never listed.
  const { mutateAsync: updatePassword, isPending } = useCallMutation('users', 'updatePassword', { calls: [] });
  if (!record) return null;

  const close = () => {
    setOpen(false);
    setValues({ password: '', repassword: '' });
    setErrors({});
  };
  const submit = async () => {
    const checked = validate(passwordChangeSchema, values);
    if (!checked.ok) return setErrors(Object.fromEntries(checked.errors.map((e) => [e.field, e.message])));
    try {
      await updatePassword([Number(record.id), checked.value.password]);
      notify('console.action.passwordReset', { type: 'success' });
      close();
    } catch {
      /* the catalogue shows why */
    }
  };
  return (
    <>
      <Button size="small" startIcon={<LockResetIcon />} onClick={() => setOpen(true)}>
        {translate('console.action.resetPassword')}
      </Button>
      <Dialog open={open} onClose={close} aria-labelledby="reset-password-title">
        <DialogTitle id="reset-password-title">{`${translate('console.action.resetPassword')}: ${String(record.name ?? '')}`}</DialogTitle>
        <DialogContent>
          <Stack sx={{ pt: 1, minWidth: 300 }}>
            <PasswordField
              label={translate('console.password.newPassword')}
              value={values.password}
              onChange={(password) => setValues((v) => ({ ...v, password }))}
              error={errors.password && translate(errors.password)}
            />
            <PasswordField
              label={translate('console.password.confirmPassword')}
              value={values.repassword}
              onChange={(repassword) => setValues((v) => ({ ...v, repassword }))}
              error={errors.repassword && translate(errors.repassword)}
              onEnter={submit}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>{translate('ra.action.cancel')}</Button>
          <Button variant="contained" onClick={submit} disabled={isPending}>
            {translate('ra.action.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
