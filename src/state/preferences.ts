import { useSyncExternalStore } from 'react';
import { COOKIE_DAYS } from '../domain/constants';
import { isSize, type ConsoleSettings, type Size } from '../domain/systemSettings';
import { getConfig } from '../config';
import { getState, setState } from './clientState';
import { getCookie, setCookie } from './cookies';
import { CookieKey } from './storageKeys';

/**
 * Interface preferences (docs/requirements.md §§3, 4 and 9) beyond the theme colour (clientState.setTheme):
 * the size (cookie `size`, 30 days), the login and home backgrounds (local storage
 * `loginBackground` / `homeBackground` = 1..6, read by pictures/backgrounds.ts), and the console
 * settings the server keeps for everyone (bell interval, default size for browsers without a
 * size cookie), loaded once per page.
 */
export function setSize(size: Size): void {
  setCookie(CookieKey.size, size, COOKIE_DAYS);
  setState({ size });
}

export const BackgroundKey = { login: 'loginBackground', home: 'homeBackground' } as const;
export type BackgroundKind = keyof typeof BackgroundKey;

export function getBackground(kind: BackgroundKind): number {
  const n = Number(localStorage.getItem(BackgroundKey[kind]));
  return Number.isInteger(n) && n >= 1 && n <= 6 ? n : 1;
}

export function setBackground(kind: BackgroundKind, n: number): void {
  localStorage.setItem(BackgroundKey[kind], String(n));
  notify();
}

let settings: ConsoleSettings | null = null;
let version = 0;
const listeners = new Set<() => void>();
function notify() {
  version += 1;
  for (const l of listeners) l();
}
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** Applies the server's console settings: the bell interval, and the default size when none was chosen here. */
export function applyConsoleSettings(next: ConsoleSettings): void {
  settings = next;
  if (getCookie(CookieKey.size) === null && isSize(next.defaultSize) && getState().size !== next.defaultSize)
    setState({ size: next.defaultSize });
  notify();
}

/** Seconds between two polls of the bell: the server's setting, else config.json's. */
export function useWarnRefreshSeconds(): number {
  useSyncExternalStore(subscribe, () => version);
  return settings?.warnRefreshSeconds ?? getConfig().warnRefreshSeconds;
}

/** Re-renders when a background choice changes. */
export function useBackground(kind: BackgroundKind): number {
  useSyncExternalStore(subscribe, () => version);
  return getBackground(kind);
}
