import { useEffect, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'ra-core';
import { getState } from '../../state/clientState';
import { forgetLogin, recallLogin, rememberLogin } from '../../state/rememberedLogin';
import { loginWith } from '../../state/session';
import { backgroundIndex, LOGIN_BACKGROUNDS } from '../../pictures/backgrounds';
import { LanguageSelect } from '../../layout/LanguageSelect';
import { PasswordField } from '../../layout/PasswordField';

/**
 * The login form's rules (yup, about 10 KB) are not needed to show the form: a chunk of their own,
 * fetched once the form is up (normally long before the first submit), awaited on submit.
 */
let loginRules: Promise<typeof import('./loginRules')> | null = null;
const loadLoginRules = () => (loginRules ??= import('./loginRules'));

/**
 * The login screen. It does not load react-admin: on success the console (a lazy chunk) takes
 * over at the path asked for. A failed login only stops the spinner (the catalogue shows why).
 */
export function LoginPage({ onLoggedIn }: { onLoggedIn: (to: string) => void }) {
  const t = useTranslate();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    void loadLoginRules();
    if (getState().token) {
      onLoggedIn('/');
      return;
    }
    let live = true;
    void recallLogin().then((saved) => {
      if (!live || !saved) return;
      setName(saved.name);
      setPassword(saved.password);
      setRemember(true);
    });
    return () => {
      live = false;
    };
  }, [onLoggedIn]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const { validate, loginSchema } = await loadLoginRules();
    const checked = validate(loginSchema, { name, password });
    if (!checked.ok) {
      setErrors(Object.fromEntries(checked.errors.map((e) => [e.field, e.message])));
      return;
    }
    setErrors({});
    setLoading(true);
    try {
      await loginWith(name.trim(), password);
      if (remember) await rememberLogin(name.trim(), password);
      else forgetLogin();
      const redirect = new URLSearchParams(window.location.search).get('redirect');
      onLoggedIn(redirect && redirect.startsWith('/') && !redirect.startsWith('//') ? redirect : '/');
    } catch {
      setLoading(false);
    }
  };

  return (
    <Box
      sx={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        backgroundImage: LOGIN_BACKGROUNDS[backgroundIndex('loginBackground')],
        backgroundSize: 'cover',
        backgroundPosition: 'center',
        p: 2,
      }}
    >
      <Box sx={{ position: 'fixed', top: 12, right: 16 }}>
        <LanguageSelect light />
      </Box>
      <Paper
        component="form"
        onSubmit={submit}
        noValidate
        elevation={6}
        sx={{ width: 'min(380px, 100%)', p: 4, display: 'flex', flexDirection: 'column', gap: 2, bgcolor: 'rgba(255,255,255,0.94)' }}
      >
        <Box>
          <Typography component="h1" variant="h5" sx={{ fontWeight: 600, color: 'primary.main' }}>
            {t('console.login.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('console.login.subtitle')}
          </Typography>
        </Box>
        <TextField
          label={t('console.login.name')}
          value={name}
          onChange={(e) => setName(e.target.value)}
          autoComplete="username"
          autoFocus
          error={Boolean(errors.name)}
          helperText={errors.name ? t(errors.name) : ' '}
          slotProps={{ htmlInput: { 'data-testid': 'login-name' } }}
        />
        <PasswordField
          label={t('console.login.password')}
          value={password}
          onChange={setPassword}
          error={errors.password ? t(errors.password) : undefined}
          testId="login-password"
        />
        <FormControlLabel
          control={<Checkbox checked={remember} onChange={(e) => setRemember(e.target.checked)} />}
          label={t('console.login.remember')}
        />
        <Button
          type="submit"
          variant="contained"
          size="large"
          disabled={loading}
          data-testid="login-submit"
          startIcon={loading ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          {t('console.login.submit')}
        </Button>
      </Paper>
    </Box>
  );
}
