import { useState } from 'react';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useLocation, useNavigate } from 'react-router-dom';
import { useTranslate } from 'ra-core';
import { PasswordField } from './PasswordField';
import { clearSession } from '../state/clientState';
import { forgetLogin } from '../state/rememberedLogin';
import { loginWith } from '../state/session';
import { useClientState } from '../state/useClientState';

/**
 * The login-again dialog of docs/requirements.md §2 (session timed out, -26): blocking; read-only user
 * name; password with show/hide, Enter submits; the auto-login box shown but disabled; Log in
 * returns to the same page through /redirect; Back logs out and reloads on the login page.
 */
export function ReloginDialog({ leave = (path: string) => window.location.assign(path) }: { leave?: (path: string) => void }) {
  const t = useTranslate();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const wanted = useClientState((s) => s.relogin);
  const name = useClientState((s) => s.name ?? '');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  if (!wanted) return null;

  const submit = async () => {
    if (!password || busy) return;
    setBusy(true);
    try {
      await loginWith(name, password);
      setPassword('');
      navigate(`/redirect${pathname}${search}`, { replace: true });
    } catch {
      /* the catalogue shows the reason; the dialog stays */
    } finally {
      setBusy(false);
    }
  };
  // docs/requirements.md §4: Back logs out, and a logout forgets the remembered login too.
  const back = () => {
    clearSession();
    forgetLogin();
    leave('/login');
  };

  return (
    <Dialog open disableEscapeKeyDown data-testid="relogin-dialog" aria-labelledby="relogin-title">
      <DialogTitle id="relogin-title">{t('console.dialog.reloginTitle')}</DialogTitle>
      <DialogContent>
        <Stack sx={{ pt: 1, minWidth: { xs: 240, sm: 320 } }}>
          <TextField
            label={t('console.login.name')}
            value={name}
            slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'relogin-name' } }}
            helperText=" "
          />
          <PasswordField
            label={t('console.login.password')}
            value={password}
            onChange={setPassword}
            onEnter={submit}
            testId="relogin-password"
            autoFocus
          />
          <FormControlLabel control={<Checkbox disabled />} label={t('console.dialog.autoLogin')} />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={back} data-testid="relogin-back">
          {t('console.dialog.backToLogin')}
        </Button>
        <Button variant="contained" onClick={submit} disabled={busy} data-testid="relogin-submit">
          {t('console.dialog.login')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
