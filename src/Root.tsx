import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import CircularProgress from '@mui/material/CircularProgress';
import CssBaseline from '@mui/material/CssBaseline';
import Box from '@mui/material/Box';
import { ThemeProvider } from '@mui/material/styles';
import { ConsoleI18nProvider } from './i18n/I18nContext';
import { ErrorCatalogueHost } from './layout/ErrorCatalogueHost';
import { LoginPage } from './pages/login/LoginPage';
import { buildTheme } from './theme/buildTheme';
import { useClientState } from './state/useClientState';

/** react-admin and everything behind the login page: a separate chunk. */
const App = lazy(() => import('./App'));

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
    setMode('app');
  }, []);
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
