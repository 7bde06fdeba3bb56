import { COOKIE_DAYS, DEFAULT_SIZE, DEFAULT_THEME, normaliseLanguage, type Language } from '../domain/constants';
import { getCookie, removeCookie, setCookie } from './cookies';
import { CookieKey, LocalKey, SESSION_STATE_KEY } from './storageKeys';

/**
 * The client state of docs/requirements.md §3: who is logged in, and the interface preferences. Saved to
 * session storage when the page unloads and restored at start; the cookies listed in
 * storageKeys.ts are the source of truth for what they hold.
 */
export interface ClientState {
  token: string | null;
  roles: string[];
  name: string | null;
  nickName: string | null;
  id: number | null;
  parentId: number | null;
  permissionLevel: string | null;
  theme: string;
  language: Language;
  size: string;
  /** Hours from UTC, -12..12. */
  timeZone: number;
  sidebarOpen: boolean;
  deviceId: number | null;
  locationId: number | null;
  tabPaneName: string | null;
  /** Data URLs of the enterprise's logo and antenna icons (null: the default picture). */
  icons: { logo: string | null; online: string | null; offline: string | null; alarm: string | null };
  /** The open-page tabs, in opening order. */
  tabs: string[];
  /** Set while the login-again dialog is wanted. */
  relogin: boolean;
}

export const browserTimeZone = (): number => {
  const hours = Math.round(-new Date().getTimezoneOffset() / 60);
  return Math.max(-12, Math.min(12, hours));
};

const parseTimeZone = (raw: string | null): number | null => {
  if (raw === null || raw === '') return null;
  const n = Number(raw);
  return Number.isInteger(n) && n >= -12 && n <= 12 ? n : null;
};

export const NO_USER = { roles: [], name: null, nickName: null, id: null, parentId: null, permissionLevel: null } as const;
const NO_ICONS = { logo: null, online: null, offline: null, alarm: null };

export function initialState(): ClientState {
  return {
    token: null,
    ...NO_USER,
    roles: [],
    theme: DEFAULT_THEME,
    language: 'zh',
    size: DEFAULT_SIZE,
    timeZone: browserTimeZone(),
    sidebarOpen: true,
    deviceId: null,
    locationId: null,
    tabPaneName: null,
    icons: { ...NO_ICONS },
    tabs: [],
    relogin: false,
  };
}

let state: ClientState = initialState();
const listeners = new Set<() => void>();

export const getState = (): ClientState => state;

export function setState(patch: Partial<ClientState>): void {
  state = { ...state, ...patch };
  for (const listener of listeners) listener();
}

export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Reads session storage and cookies; called once at start (and by tests). */
export function restoreState(): ClientState {
  let saved: Partial<ClientState> = {};
  try {
    saved = JSON.parse(sessionStorage.getItem(SESSION_STATE_KEY) ?? '{}') as Partial<ClientState>;
  } catch {
    saved = {};
  }
  const token = getCookie(CookieKey.token);
  const rawLanguage = getCookie(CookieKey.language);
  const language = normaliseLanguage(rawLanguage);
  if (rawLanguage !== null && rawLanguage !== language) setCookie(CookieKey.language, language, COOKIE_DAYS);
  const sidebar = getCookie(CookieKey.sidebar);
  const sameSession = Boolean(token) && saved.token === token;
  state = {
    ...initialState(),
    ...(sameSession ? saved : {}),
    token,
    language,
    size: getCookie(CookieKey.size) ?? DEFAULT_SIZE,
    timeZone: parseTimeZone(getCookie(CookieKey.timeZone)) ?? browserTimeZone(),
    sidebarOpen: sidebar === null ? true : sidebar === '1',
    theme: localStorage.getItem(LocalKey.theme) ?? DEFAULT_THEME,
    relogin: false,
  };
  if (!sameSession) state = { ...state, tabs: [] };
  for (const listener of listeners) listener();
  return state;
}

export function saveState(): void {
  try {
    sessionStorage.setItem(SESSION_STATE_KEY, JSON.stringify(state));
  } catch {
    /* storage full or disabled: nothing to keep */
  }
}

/** Saves the state when the page goes away; returns the undo. */
export function persistOnUnload(): () => void {
  window.addEventListener('beforeunload', saveState);
  window.addEventListener('pagehide', saveState);
  return () => {
    window.removeEventListener('beforeunload', saveState);
    window.removeEventListener('pagehide', saveState);
  };
}

export function setToken(token: string | null): void {
  if (token) setCookie(CookieKey.token, token);
  else removeCookie(CookieKey.token);
  setState({ token });
}

export function setLanguage(language: Language): void {
  setCookie(CookieKey.language, language, COOKIE_DAYS);
  setState({ language });
}

export function setTimeZone(timeZone: number): void {
  setCookie(CookieKey.timeZone, String(timeZone), COOKIE_DAYS);
  setState({ timeZone });
}

export function setSidebarOpen(open: boolean): void {
  setCookie(CookieKey.sidebar, open ? '1' : '0');
  setState({ sidebarOpen: open });
}

export function setTheme(theme: string): void {
  localStorage.setItem(LocalKey.theme, theme);
  setState({ theme });
}

/** Forgets the session: token, user, icons, tabs (preferences stay). */
export function clearSession(): void {
  removeCookie(CookieKey.token);
  removeCookie(CookieKey.notice);
  try {
    sessionStorage.removeItem(SESSION_STATE_KEY);
  } catch {
    /* ignore */
  }
  setState({
    token: null,
    ...NO_USER,
    roles: [],
    icons: { ...NO_ICONS },
    tabs: [],
    relogin: false,
    deviceId: null,
    locationId: null,
    tabPaneName: null,
  });
}
