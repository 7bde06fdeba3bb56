import { beforeEach, describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { CoreAdminContext, memoryStore } from 'react-admin';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { createAuthProvider } from '../../src/authProvider';
import { ConsoleI18nProvider } from '../../src/i18n/I18nContext';
import { RouteGuard } from '../../src/layout/RouteGuard';
import { restoreState, setState, setToken } from '../../src/state/clientState';
import { mockApi, ok } from '../console/helpers';
import { WhereAmI } from './render';

function renderGuarded(path: string) {
  const authProvider = createAuthProvider({ reload: () => undefined });
  return render(
    <MemoryRouter initialEntries={[path]}>
      <CoreAdminContext authProvider={authProvider} store={memoryStore()}>
        <ConsoleI18nProvider>
          <Routes>
            <Route path="/401" element={<p>denied</p>} />
            <Route path="/login" element={<p>login</p>} />
            <Route
              path="*"
              element={
                <RouteGuard>
                  <p>page content</p>
                </RouteGuard>
              }
            />
          </Routes>
          <WhereAmI />
        </ConsoleI18nProvider>
      </CoreAdminContext>
    </MemoryRouter>,
  );
}

const asLevel = (level: string) => {
  setToken('T');
  setState({ id: 5, name: 'u', roles: [level], permissionLevel: level });
};

describe('route guard per level (docs/requirements.md §§4 and 6)', () => {
  beforeEach(() => restoreState());

  it('no token: to /login, remembering the page', async () => {
    renderGuarded('/system/user');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/login'));
    expect(screen.getByText('login')).toBeInTheDocument();
  });

  it.each([
    ['1', '/system/user', true],
    ['2', '/system/user', true],
    ['3', '/system/user', false],
    ['1', '/system/firmware', true],
    ['2', '/system/firmware', false],
    ['3', '/system/firmware', false],
    ['1', '/system/icon', false],
    ['2', '/system/icon', true],
    ['3', '/system/icon', true],
    ['3', '/device/deviceManageData', true],
    ['3', '/personal/password', true],
    ['2', '/personal/preference', false],
    ['3', '/system/extraLink/4', false],
    ['3', '/dashboard', true],
  ])('level %s on %s: allowed %s', async (level, path, allowed) => {
    asLevel(level);
    renderGuarded(path);
    if (allowed) {
      expect(screen.getByText('page content')).toBeInTheDocument();
      expect(screen.getByTestId('where')).toHaveTextContent(path);
    } else {
      await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/401'));
      expect(screen.queryByText('page content')).not.toBeInTheDocument();
    }
  });

  it('token without roles: fetches the user, then shows the page', async () => {
    setToken('T');
    const { calls } = mockApi(
      (path) => (path === '/users/getSelf' ? ok({ id: 2, name: 'oceanic', nickname: null, parentId: null, permissionLevel: '2' }) : ok([])),
      { getToken: () => 'T' },
    );
    renderGuarded('/system/user');
    await waitFor(() => expect(screen.getByText('page content')).toBeInTheDocument());
    expect(calls.some((c) => c.url.pathname.endsWith('/users/getSelf'))).toBe(true);
  });

  it('token without roles, user fetch fails: forced logout to the login page', async () => {
    setToken('T');
    mockApi(() => ({ code: 5, msg: 'invalid' }), { getToken: () => 'T' });
    renderGuarded('/system/user');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/login'));
  });
});
