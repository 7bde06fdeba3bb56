import { createRoot } from 'react-dom/client';
import { configureClient } from './api';
import { primeDashboard } from './api/monitoringApi';
import { loadConfig } from './config';
import { documentTitle, loadMessages } from './i18n/messages';
import { getState, persistOnUnload, restoreState } from './state/clientState';
import { Root } from './Root';

/** Start: the saved client state, the runtime config and the language's catalogue, the HTTP client's hooks, then the first screen. */
async function start() {
  const state = restoreState();
  // Both at once: one round trip, not two, before the first screen.
  await Promise.all([loadConfig(), loadMessages(state.language)]);
  persistOnUnload();
  configureClient({
    getToken: () => getState().token,
    getLanguage: () => getState().language,
    getTimeZone: () => getState().timeZone,
    getContext: () => ({ onLoginPage: window.location.pathname === '/login', userName: getState().name }),
  });
  document.title = documentTitle(state.language);
  document.documentElement.lang = state.language;

  const path = window.location.pathname;
  const open = path === '/login' || path === '/auth-redirect';
  if (!state.token && !open) {
    const wanted = path === '/' ? '' : `?redirect=${encodeURIComponent(path + window.location.search)}`;
    window.history.replaceState(null, '', `/login${wanted}`);
  }
  const startOn =
    !state.token && path !== '/auth-redirect' ? 'login' : path === '/login' && state.token ? 'app' : path === '/login' ? 'login' : 'app';
  if (startOn === 'app' && path === '/login') window.history.replaceState(null, '', '/');
  // The dashboard's calls start now, not once its code has loaded and rendered.
  if (startOn === 'app' && ['/', '/dashboard', '/login'].includes(path)) primeDashboard();
  createRoot(document.getElementById('root')!).render(<Root start={startOn} />);
}

void start();
