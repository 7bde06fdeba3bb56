/**
 * The open-page tabs as pure functions over the list of paths. Closing the active tab goes to the
 * last remaining tab, or to / when none remain.
 */
export const HOME_PATH = '/';

export function openTab(tabs: readonly string[], path: string): string[] {
  return tabs.includes(path) ? [...tabs] : [...tabs, path];
}

export interface CloseResult {
  tabs: string[];
  /** Where to go (null: stay on the active page). */
  navigateTo: string | null;
}

export function closeTab(tabs: readonly string[], path: string, active: string): CloseResult {
  const next = tabs.filter((t) => t !== path);
  if (path !== active) return { tabs: next, navigateTo: null };
  return { tabs: next, navigateTo: next.length ? next[next.length - 1]! : HOME_PATH };
}

export function closeOthers(tabs: readonly string[], keep: string, active: string): CloseResult {
  const next = tabs.filter((t) => t === keep);
  return { tabs: next, navigateTo: active === keep ? null : keep };
}

export function closeAll(): CloseResult {
  return { tabs: [], navigateTo: HOME_PATH };
}

/** The path a tab refresh goes through: /redirect remounts the page, then returns. */
export const refreshPath = (path: string): string => `/redirect${path}`;
