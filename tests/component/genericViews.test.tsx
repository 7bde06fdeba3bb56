import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AdminContext, ResourceContextProvider, type DataProvider } from 'react-admin';
import { createDataProvider } from '../../src/data/dataProvider';
import { createI18nProvider } from '../../src/i18n/i18nProvider';
import { loadMessages } from '../../src/i18n/messages';
import { canAccessResource } from '../../src/navigation/access';
import { levelAuthProvider } from './levelAuthProvider';
import { ENDPOINTS, RESOURCES } from '../../src/resources';
import { ResourceCreate } from '../../src/resources/generic/ResourceCreate';
import { ResourceList } from '../../src/resources/generic/ResourceList';
import { auditNameCell } from '../../src/resources/auditLog/AuditChangesCell';
import { NO_USER, setState } from '../../src/state/clientState';
import { buildTheme } from '../../src/theme/buildTheme';
import { PALETTES } from '../../src/theme/palettes';
import { mockApi, ok } from '../console/helpers';

/** The generic views render a definition: columns by kind, actions by access, required filters, forms validated as you type. */
const authProvider = levelAuthProvider;
const definition = (name: string) => RESOURCES.find((r) => r.name === name)!;

async function renderView(name: string, level: string, view: 'list' | 'create') {
  await loadMessages('en');
  setState({ token: 'T', permissionLevel: level, id: 1, name: 'admin', roles: [level] });
  const i18n = createI18nProvider('en');
  render(
    <AdminContext
      i18nProvider={i18n}
      dataProvider={createDataProvider(ENDPOINTS) as DataProvider}
      authProvider={authProvider}
      theme={buildTheme(PALETTES[0]!.primary)}
    >
      <ResourceContextProvider value={name}>
        {view === 'list' ? <ResourceList definition={definition(name)} /> : <ResourceCreate definition={definition(name)} />}
      </ResourceContextProvider>
    </AdminContext>,
  );
}

afterEach(() => setState({ ...NO_USER, roles: [], token: null }));

describe('the generic views', () => {
  it("list the declared columns, a choice column in words and a datetime in the user's zone, with the actions the level may use", async () => {
    setState({ timeZone: 8 });
    mockApi(
      (path) =>
        path === '/users/getAll'
          ? ok({
              list: [
                {
                  id: 3,
                  name: 'oceanic',
                  nickname: 'Oceanic',
                  permissionLevel: '2',
                  parentName: null,
                  email: 'o@x.io',
                  createdAt: '2026-01-01T23:30:00Z',
                },
              ],
              total: 1,
            })
          : ok(null),
      { getToken: () => 'T' },
    );
    await renderView('system/user', '1', 'list');
    await screen.findByText('oceanic');
    expect(screen.getByText('Enterprise user')).toBeTruthy();
    expect(screen.getByText('2026-01-02 07:30:00')).toBeTruthy();
    expect(await screen.findByRole('button', { name: /delete/i })).toBeTruthy();
    expect(screen.getByRole('link', { name: /edit/i })).toBeTruthy();
  });

  it('show no create, edit or delete on a read-only list (the audit log), and keep device authorization from a sub-user', async () => {
    mockApi(
      () =>
        ok({
          list: [
            {
              id: 1,
              at: '2026-01-01T00:00:00Z',
              userName: 'admin',
              entity: 'device',
              action: 'update',
              before: { name: 'Old', updated_at: '2026-01-01T00:00:00Z' },
              after: { name: 'New', updated_at: '2026-01-02T00:00:00Z' },
              changes: [{ field: 'name', before: 'Old', after: 'New' }],
            },
          ],
          total: 1,
        }),
      { getToken: () => 'T' },
    );
    await renderView('system/auditLog', '2', 'list');
    // What changed, under the console's name for the field (not the raw column), and nothing internal.
    const changes = await screen.findByTestId('audit-changes');
    expect(changes.textContent).toMatch(/^(设备名称|Name|Vessel name|名称|船名)[^:]*: Old → New$/);
    expect(screen.queryByText(/updated_at/)).toBeNull();
    // Entity and action under their console names, not the route's words.
    expect(await screen.findByText('Device')).toBeTruthy();
    expect(screen.getByText('Changed')).toBeTruthy();
    expect(screen.queryByText('update')).toBeNull();
    expect(screen.queryByRole('button', { name: /delete/i })).toBeNull();
    expect(screen.queryByRole('link', { name: /create/i })).toBeNull();
    expect(canAccessResource('3', 'system/deviceAuth', 'list')).toBe(false);
  });

  it("name an audit entry's entity and action in the reader's language, and a declared resource's as recorded", async () => {
    for (const [lang, record, shown] of [
      ['zh', { entity: 'contactPoint', action: 'runNow' }, ['通知渠道', '立即运行']],
      ['en', { entity: 'ports', action: 'update' }, ['ports', 'Changed']],
    ] as const) {
      await loadMessages(lang);
      const Entity = auditNameCell('entity');
      const Action = auditNameCell('action');
      render(
        <AdminContext i18nProvider={createI18nProvider(lang)}>
          <span data-testid="entity">
            <Entity record={{ id: 1, ...record }} />
          </span>
          <span data-testid="action">
            <Action record={{ id: 1, ...record }} />
          </span>
        </AdminContext>,
      );
      expect([screen.getByTestId('entity').textContent, screen.getByTestId('action').textContent]).toEqual(shown);
      document.body.innerHTML = '';
    }
  });

  it('ask for a required filter instead of calling the server without it', async () => {
    const { calls } = mockApi(() => ok({ list: [], total: 0 }), { getToken: () => 'T' });
    const provider = createDataProvider(ENDPOINTS);
    await expect(
      provider.getList('device/cameraInfo', { pagination: { page: 1, perPage: 10 }, sort: { field: 'id', order: 'ASC' }, filter: {} }),
    ).resolves.toEqual({ data: [], total: 0 });
    expect(calls).toHaveLength(0);
    await provider.getList('device/cameraInfo', {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'id', order: 'ASC' },
      filter: { deviceId: 4 },
    });
    expect(calls[0]!.url.searchParams.get('deviceId')).toBe('4');
  });

  it('validate a form as the user types, with the domain message, and send nothing while it is wrong', async () => {
    const { calls } = mockApi(() => ok({ list: [], total: 0 }), { getToken: () => 'T' });
    await renderView('system/user', '1', 'create');
    const email = await screen.findByLabelText(/email/i);
    fireEvent.change(email, { target: { value: 'not-an-email' } });
    fireEvent.blur(email);
    const helper = () => document.body.textContent ?? '';
    await waitFor(() => expect(helper()).toContain('Please enter a correct email address'));
    fireEvent.change(email, { target: { value: 'ok@example.com' } });
    await waitFor(() => expect(helper()).not.toContain('Please enter a correct email address'));
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    await waitFor(() => expect(helper()).toMatch(/cannot be empty/));
    expect(calls.filter((c) => c.url.pathname.endsWith('/users/addUser'))).toHaveLength(0);
    vi.restoreAllMocks();
  });
});
