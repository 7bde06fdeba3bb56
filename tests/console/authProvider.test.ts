import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createAuthProvider } from '../../src/authProvider';
import { clearSession, getState, restoreState, setState, setToken } from '../../src/state/clientState';
import { getCookie } from '../../src/state/cookies';
import { isLoginRemembered } from '../../src/state/rememberedLogin';
import { LocalKey } from '../../src/state/storageKeys';
import { mockApi, ok, type Reply } from './helpers';

const self = (level: string, id = 1, parentId: number | null = null) => ({
  id,
  name: 'neo',
  nickname: 'Neo',
  parentId,
  permissionLevel: level,
});

function setup(routes: Record<string, Reply>) {
  const api = mockApi((path) => routes[path] ?? { code: 10, msg: 'no route' }, { getToken: () => getState().token });
  const reload = vi.fn();
  return { ...api, reload, auth: createAuthProvider({ reload }) };
}

beforeEach(() => {
  restoreState();
});

describe('authProvider: the session states of docs/requirements.md §4', () => {
  it('login posts name and password form-encoded, keeps data.token and loads the user', async () => {
    const { auth, calls } = setup({
      '/users/login': ok({ token: 'T1' }),
      '/users/getSelf': ok(self('2', 8)),
      '/users/getPictureListByUid': ok([]),
    });
    await expect(auth.login({ username: 'neo', password: 'pw123456' })).resolves.toEqual({ redirectTo: '/' });
    expect(calls[0]!.url.pathname).toBe('/cz/test/users/login');
    // The console's UTC offset goes with the login (the user's alarm mails use it).
    const form = new URLSearchParams(calls[0]!.body as string);
    expect([...form.keys()]).toEqual(['name', 'password', 'timeZone']);
    expect(form.get('name')).toBe('neo');
    expect(form.get('password')).toBe('pw123456');
    expect(Number.isInteger(Number(form.get('timeZone')))).toBe(true);
    expect(calls[0]!.url.searchParams.has('token')).toBe(false);
    expect(getCookie('token')).toBe('T1');
    expect(getState()).toMatchObject({ token: 'T1', id: 8, name: 'neo', permissionLevel: '2', roles: ['2'] });
  });

  it('a failed login rejects and keeps no token', async () => {
    const { auth } = setup({ '/users/login': { code: 6, msg: 'Wrong username or password' } });
    await expect(auth.login({ username: 'neo', password: 'bad' })).rejects.toMatchObject({ code: 6 });
    expect(getState().token).toBeNull();
  });

  it('no token: checkAuth sends to /login', async () => {
    const { auth } = setup({});
    await expect(auth.checkAuth({})).rejects.toMatchObject({ redirectTo: '/login' });
  });

  it('token without roles: checkAuth fetches the user once, then passes without calling again', async () => {
    setToken('T2');
    const { auth, calls } = setup({ '/users/getSelf': ok(self('3', 9, 2)), '/users/getPictureListByUid': ok([]) });
    await expect(auth.checkAuth({})).resolves.toBeUndefined();
    expect(getState().roles).toEqual(['3']);
    const selfCalls = () => calls.filter((c) => c.url.pathname.endsWith('getSelf')).length;
    expect(selfCalls()).toBe(1);
    await auth.checkAuth({});
    expect(selfCalls()).toBe(1);
  });

  it('the user fetch fails: forced local logout and /', async () => {
    setToken('T3');
    const { auth, reload } = setup({ '/users/getSelf': { code: 5, msg: 'invalid' } });
    await expect(auth.checkAuth({})).rejects.toMatchObject({ redirectTo: '/' });
    expect(getState().token).toBeNull();
    expect(getCookie('token')).toBeNull();
    expect(reload).not.toHaveBeenCalled();
  });

  it('logout clears local data, calls logout with the old token, and reloads', async () => {
    setToken('T4');
    setState({ name: 'neo', id: 1, roles: ['1'], permissionLevel: '1', tabs: ['/system/user'] });
    const { auth, calls, reload } = setup({ '/users/logout': ok(null) });
    await auth.logout({});
    expect(calls[0]!.url.pathname).toBe('/cz/test/users/logout');
    expect(calls[0]!.url.searchParams.get('token')).toBe('T4');
    expect(getState()).toMatchObject({ token: null, name: null, roles: [], tabs: [] });
    expect(reload).toHaveBeenCalledWith('/login');
  });

  it("logout forgets the remembered login (name, encrypted password, auto-login flag); react-admin's logout without a token keeps it", async () => {
    const remember = () => {
      localStorage.setItem(LocalKey.autoLogin, '1');
      localStorage.setItem(LocalKey.rememberedName, 'neo');
      localStorage.setItem(LocalKey.rememberedSecret, 'aXY=.Y2lwaGVy');
    };
    const stored = () => [LocalKey.autoLogin, LocalKey.rememberedName, LocalKey.rememberedSecret].map((k) => localStorage.getItem(k));
    // No token (checkAuth failed, e.g. a fresh page): no logout of the user's, the login page still fills in.
    remember();
    const { auth } = setup({ '/users/logout': ok(null) });
    await auth.logout({});
    expect(stored()).toEqual(['1', 'neo', 'aXY=.Y2lwaGVy']);
    expect(isLoginRemembered()).toBe(true);
    // The user logs out: everything stored goes, even when the server call fails.
    setToken('T6');
    await auth.logout({});
    expect(stored()).toEqual([null, null, null]);
    remember();
    setToken('T7');
    const failing = setup({ '/users/logout': { status: 500 } });
    await failing.auth.logout({});
    expect(stored()).toEqual([null, null, null]);
    expect(failing.reload).toHaveBeenCalledWith('/login');
  });

  it('logout reloads even when the call fails', async () => {
    setToken('T5');
    const { auth, reload } = setup({ '/users/logout': { status: 500 } });
    await auth.logout({});
    expect(getState().token).toBeNull();
    expect(reload).toHaveBeenCalledWith('/login');
  });

  it('logout without a token calls nothing and does not reload', async () => {
    const { auth, calls, reload } = setup({});
    await auth.logout({});
    expect(calls).toHaveLength(0);
    expect(reload).not.toHaveBeenCalled();
  });

  it('checkError: token errors log out; the catalogue codes and others do not', async () => {
    const { auth } = setup({});
    await expect(auth.checkError({ code: 4 })).rejects.toMatchObject({ redirectTo: '/login' });
    await expect(auth.checkError({ status: 401, body: { code: 5 } })).rejects.toBeTruthy();
    for (const code of [-24, -26, -124, -125, 1, 3, -100]) await expect(auth.checkError({ code, status: 200 })).resolves.toBeUndefined();
  });

  it('getIdentity comes from getSelf', async () => {
    setToken('T6');
    const { auth } = setup({ '/users/getSelf': ok(self('1', 1)), '/users/getPictureListByUid': ok([]) });
    await expect(auth.getIdentity!()).resolves.toMatchObject({ id: 1, fullName: 'Neo' });
  });

  it.each([
    ['1', 'system/user', true],
    ['2', 'system/user', true],
    ['3', 'system/user', false],
    ['1', 'system/extraLink', true],
    ['3', 'system/extraLink', false],
    ['1', 'system/icon', false],
    ['2', 'system/icon', true],
    ['3', 'system/icon', true],
    ['2', 'system/firmware', false],
    ['1', 'system/firmware', true],
  ])('canAccess: level %s on %s is %s', async (level, resource, allowed) => {
    setToken('T7');
    setState({ id: 1, name: 'n', permissionLevel: level, roles: [level] });
    const { auth } = setup({});
    await expect(auth.canAccess!({ resource, action: 'list' })).resolves.toBe(allowed);
  });

  it.each([
    ['3', 'system/deviceManagement', 'list', true],
    ['3', 'system/deviceManagement', 'create', false],
    ['3', 'system/deviceManagement', 'edit', false],
    ['3', 'system/deviceManagement', 'delete', false],
    ['2', 'system/deviceManagement', 'create', true],
    ['2', 'system/deviceManagement', 'delete', true],
    ['1', 'system/extraLink', 'delete', false],
    ['1', 'system/auditLog', 'create', false],
    ['1', 'system/auditLog', 'export', true],
    ['2', 'system/auditLog', 'export', true],
    ['1', 'system/user', 'fly', false],
    ['1', 'nowhere', 'list', false],
    ['1', 'device/deviceManageData', 'list', true],
  ])('canAccess per action: level %s, %s, %s is %s', async (level, resource, action, allowed) => {
    setToken('T8');
    setState({ id: 1, name: 'n', permissionLevel: level, roles: [level] });
    const { auth } = setup({});
    await expect(auth.canAccess!({ resource, action })).resolves.toBe(allowed);
  });

  it('getPermissions is the level, or null without a token', async () => {
    setToken('T9');
    setState({ id: 1, name: 'n', permissionLevel: '2', roles: ['2'] });
    const { auth } = setup({});
    await expect(auth.getPermissions!({})).resolves.toBe('2');
    clearSession();
    await expect(auth.getPermissions!({})).resolves.toBeNull();
  });
});
