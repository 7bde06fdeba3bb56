import { describe, expect, it } from 'vitest';
import {
  browserTimeZone,
  getState,
  restoreState,
  saveState,
  setLanguage,
  setSidebarOpen,
  setState,
  setTimeZone,
  setToken,
} from '../../src/state/clientState';
import { getCookie, setCookie } from '../../src/state/cookies';
import { formatDate, timeZoneLabel } from '../../src/format/date';
import { canAccessPage, pageKeyOf } from '../../src/navigation/access';
import { menuFor } from '../../src/navigation/menu';

describe('client state (docs/requirements.md §3)', () => {
  it('resets a saved language other than zh/en to zh, and rewrites the cookie', () => {
    setCookie('language', 'fr');
    expect(restoreState().language).toBe('zh');
    expect(getCookie('language')).toBe('zh');
    setCookie('language', 'en');
    expect(restoreState().language).toBe('en');
  });

  it('stores language, time zone and sidebar in cookies (sidebar as 1/0)', () => {
    restoreState();
    setLanguage('en');
    setTimeZone(-5);
    setSidebarOpen(false);
    expect([getCookie('language'), getCookie('timeZone'), getCookie('sidebarStatus')]).toEqual(['en', '-5', '0']);
    setSidebarOpen(true);
    expect(getCookie('sidebarStatus')).toBe('1');
    expect(restoreState()).toMatchObject({ language: 'en', timeZone: -5, sidebarOpen: true });
  });

  it('defaults the time zone to the browser offset', () => {
    expect(restoreState().timeZone).toBe(browserTimeZone());
    setCookie('timeZone', '99');
    expect(restoreState().timeZone).toBe(browserTimeZone());
  });

  it('saves to session storage on unload and restores the same session at start', () => {
    restoreState();
    setToken('T');
    setState({ name: 'neo', id: 3, roles: ['2'], permissionLevel: '2', tabs: ['/system/user'] });
    window.dispatchEvent(new Event('beforeunload'));
    saveState();
    setState({ name: null, tabs: [] });
    expect(restoreState()).toMatchObject({ name: 'neo', id: 3, tabs: ['/system/user'] });
  });

  it('does not restore a saved user for another token', () => {
    restoreState();
    setToken('A');
    setState({ name: 'neo', roles: ['1'] });
    saveState();
    setToken('B');
    expect(restoreState()).toMatchObject({ token: 'B', name: null, roles: [] });
    expect(getState().tabs).toEqual([]);
  });
});

describe('the shared date formatter', () => {
  it('shows a UTC time in the chosen zone', () => {
    expect(formatDate('2026-01-01T23:30:00Z', 0)).toBe('2026-01-01 23:30:00');
    expect(formatDate('2026-01-01T23:30:00Z', 8)).toBe('2026-01-02 07:30:00');
    expect(formatDate('2026-01-01T03:00:00Z', -12, false)).toBe('2025-12-31');
    expect(formatDate(null, 8)).toBe('');
    expect([timeZoneLabel(-12), timeZoneLabel(0), timeZoneLabel(12)]).toEqual(['UTC-12', 'UTC', 'UTC+12']);
  });
});

describe('the page-access matrix (docs/requirements.md §6)', () => {
  it.each([
    ['/system/firmware', ['1']],
    ['/system/deviceAuth', ['1']],
    ['/service/afterService', ['1']],
    ['/activation/ActivateDevice', ['1']],
    ['/personal/preference', ['1']],
    ['/system/user', ['1', '2']],
    ['/system/extraLink', ['1', '2']],
    ['/system/icon', ['2', '3']],
    ['/system/deviceManagement', ['1', '2', '3']],
    ['/device/deviceManageData', ['1', '2', '3']],
    ['/service/faultClearing', ['1', '2', '3']],
    ['/personal/info', ['1', '2', '3']],
    ['/personal/password', ['1', '2', '3']],
  ])('%s is open to levels %j', (path, levels) => {
    expect(['1', '2', '3'].filter((l) => canAccessPage(l, path))).toEqual(levels);
  });

  it('matches sub-paths and leaves unlisted pages open', () => {
    expect(pageKeyOf('/system/user/12')).toBe('/system/user');
    expect(pageKeyOf('/system/userx')).toBeNull();
    expect(canAccessPage('3', '/system/user/create')).toBe(false);
    expect(canAccessPage('3', '/dashboard')).toBe(true);
  });

  it('builds each level its menu without hidden pages', () => {
    const paths = (level: string) => menuFor(level).flatMap((g) => g.children.map((c) => c.path));
    expect(paths('3')).not.toContain('/system/user');
    expect(paths('3')).toContain('/system/icon');
    expect(paths('1')).not.toContain('/system/icon');
    expect(paths('1')).toContain('/activation/ActivateDevice');
    expect(paths('1')).not.toContain('/device/cameraInfo');
    expect(menuFor('3').map((g) => g.path)).not.toContain('/activation');
  });
});
