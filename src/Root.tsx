import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import CircularProgress from '@mui/material/CircularProgress';
import CssBaseline from '@mui/material/CssBaseline';
import Box from '@mui/material/Box';
import { ThemeProvider } from '@mui/material/styles';
import { ConsoleI18nProvider } from './i18n/I18nContext';
import { ErrorCatalogueHost } from './layout/ErrorCatalogueHost';
import { LoginPage } from './pages/login/LoginPage';
import { buildTheme } from './theme/buildTheme';
import { useClientState } from './state/useClientState';
import { primeDashboard } from './api/monitoringApi';

/** react-admin and everything behind the login page: a separate chunk. */
const loadApp = () => import('./App');
const App = lazy(loadApp);

/**
 * While the login form waits for the user, the console, the dashboard (the first page after the
 * login) and its map's land are fetched and cached, so pressing log in costs the API calls alone
 * (npm run bench:satlink; over a 512 kbit/s link they took about 4.5 s after the login).
 */
function preloadConsole() {
  void loadApp();
  void import('./pages/Dashboard');
  void import('./map/baseMap').then((m) => m.loadLand('coarse'));
}

const Spinner = () => (
  <Box sx={{ height: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
    <CircularProgress />
  </Box>
);

/** The login page alone (light, no react-admin) or the whole console. */
export function Root({ start }: { start: 'login' | 'app' }) {
  const [mode, setMode] = useState(start);
  const primary = useClientState((s) => s.theme);
  const size = useClientState((s) => s.size);
  const language = useClientState((s) => s.language);
  const theme = useMemo(() => buildTheme(primary, size, language), [primary, size, language]);
  const enter = useCallback((to: string) => {
    window.history.replaceState(null, '', to);
    if (['/', '/dashboard'].includes(new URL(to, window.location.origin).pathname)) primeDashboard();
    setMode('app');
  }, []);
  useEffect(() => {
    if (mode === 'login') preloadConsole();
  }, [mode]);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <ConsoleI18nProvider>
        {mode === 'login' ? (
          <LoginPage onLoggedIn={enter} />
        ) : (
          <Suspense fallback={<Spinner />}>
            <App />
          </Suspense>
        )}
        <ErrorCatalogueHost />
      </ConsoleI18nProvider>
    </ThemeProvider>
  );
}
