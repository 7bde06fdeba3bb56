import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AdminContext, type AuthProvider, type DataProvider } from 'react-admin';
import { createI18nProvider } from '../../src/i18n/i18nProvider';
import { canAccessResource } from '../../src/navigation/access';
import { RESOURCES } from '../../src/resources';
import { PALETTES } from '../../src/theme/palettes';
import { buildTheme } from '../../src/theme/buildTheme';
import { DeviceGroupsList } from '../../src/resources/deviceGroups/DeviceGroupsList';
import { NO_USER } from '../../src/state/clientState';
import { getState, setState } from '../../src/state/clientState';

const GROUPS = 'device/deviceData';

function fakeProvider() {
  let groups = [
    { id: -1, name: 'Special Focus', ownerId: null, ownerName: null, deviceCount: 1, virtual: true },
    { id: 0, name: 'Ungrouped Device', ownerId: null, ownerName: null, deviceCount: 2, virtual: true },
    { id: 7, name: 'Container Fleet', ownerId: 2, ownerName: 'oceanic', deviceCount: 3, virtual: false },
    { id: 8, name: 'Empty', ownerId: 2, ownerName: 'oceanic', deviceCount: 0, virtual: false },
  ];
  const devices = [
    {
      id: 11,
      name: 'Pacific Star',
      deviceNum: 'A1000002',
      deviceKind: 'vsat',
      status: 1,
      groupName: 'Container Fleet',
      activated: true,
      groupId: 7,
    },
  ];
  const provider = {
    getList: vi.fn(async (resource: string, params: { filter?: Record<string, unknown> }) => {
      if (resource === GROUPS) return { data: groups, total: groups.length };
      const rows = devices.filter((d) => d.groupId === params.filter?.groupId);
      return { data: rows, total: rows.length };
    }),
    create: vi.fn(async (_resource: string, params: { data: { name: string } }) => {
      const group = { id: 9, name: params.data.name, ownerId: 2, ownerName: 'oceanic', deviceCount: 0, virtual: false };
      groups = [...groups, group];
      return { data: group };
    }),
    update: vi.fn(async (_resource: string, params: { id: number; data: { name: string } }) => {
      groups = groups.map((g) => (g.id === params.id ? { ...g, name: params.data.name } : g));
      return { data: groups.find((g) => g.id === params.id)! };
    }),
    delete: vi.fn(async (_resource: string, params: { id: number }) => {
      if (params.id === 7)
        throw Object.assign(new Error('This group still holds devices and cannot be deleted'), {
          status: 200,
          code: 11,
          body: { code: 11, data: null },
        });
      const gone = groups.find((g) => g.id === params.id)!;
      groups = groups.filter((g) => g.id !== params.id);
      return { data: gone };
    }),
    getOne: vi.fn(),
    getMany: vi.fn(async () => ({ data: [] })),
    getManyReference: vi.fn(),
    updateMany: vi.fn(),
    deleteMany: vi.fn(),
    call: vi.fn(async () => []),
  };
  return provider;
}

const authProvider: AuthProvider = {
  login: async () => undefined,
  logout: async () => undefined,
  checkAuth: async () => undefined,
  checkError: async () => undefined,
  getPermissions: async () => undefined,
  canAccess: async ({ resource, action }) => canAccessResource(getState().permissionLevel, resource, action),
};

function renderPage(level: string, provider = fakeProvider()) {
  setState({ token: 'T', permissionLevel: level, id: 2, name: 'oceanic' });
  render(
    <AdminContext
      i18nProvider={createI18nProvider('en')}
      dataProvider={provider as unknown as DataProvider}
      authProvider={authProvider}
      theme={buildTheme(PALETTES[0]!.primary)}
    >
      <DeviceGroupsList />
    </AdminContext>,
  );
  return provider;
}

afterEach(() => setState({ ...NO_USER, roles: [], token: null }));

describe('device groups as the device/deviceData resource', () => {
  it('is declared as a resource on the page route, open to every level, written by levels 1 and 2', () => {
    const definition = RESOURCES.find((r) => r.name === GROUPS)!;
    expect(definition.menu).toMatchObject({ group: 'device', order: 10, titleKey: 'menu.deviceData' });
    expect(canAccessResource('3', GROUPS, 'list')).toBe(true);
    expect(canAccessResource('3', GROUPS, 'create')).toBe(false);
    expect(canAccessResource('2', GROUPS, 'delete')).toBe(true);
    expect(canAccessResource('1', GROUPS, 'edit')).toBe(true);
  });

  it("lists the groups (virtual first), shows the selected group's devices, creates, renames and deletes through the dataProvider", async () => {
    const provider = renderPage('2');
    await screen.findByTestId('device-groups');
    expect(within(screen.getByTestId('group--1')).getByText('Special Focus')).toBeTruthy();
    expect(screen.getByTestId('group-0')).toBeTruthy();
    expect(screen.getAllByTestId(/^group--?\d+$/).map((li) => li.dataset.testid)).toEqual(['group--1', 'group-0', 'group-7', 'group-8']);
    expect(screen.queryByTestId('group-delete-0')).toBeNull();

    fireEvent.click(within(screen.getByTestId('group-7')).getByText('Container Fleet'));
    await screen.findByText('Pacific Star');
    expect(screen.getByTestId('group-selected').textContent).toContain('Container Fleet');

    fireEvent.click(await screen.findByTestId('group-add'));
    const name = await screen.findByTestId('group-name');
    fireEvent.change(name, { target: { value: 'My Special Focus list' } });
    expect(provider.create).not.toHaveBeenCalled();
    fireEvent.change(name, { target: { value: 'North Sea' } });
    fireEvent.click(screen.getByTestId('group-save'));
    await waitFor(() => expect(provider.create).toHaveBeenCalledWith(GROUPS, expect.objectContaining({ data: { name: 'North Sea' } })));
    await screen.findByText('North Sea');

    fireEvent.click(await screen.findByTestId('group-rename-8'));
    const rename = await screen.findByTestId('group-name');
    expect((rename as HTMLInputElement).value).toBe('Empty');
    fireEvent.change(rename, { target: { value: 'Baltic' } });
    fireEvent.click(screen.getByTestId('group-save'));
    await waitFor(() => expect(provider.update).toHaveBeenCalledWith(GROUPS, expect.objectContaining({ id: 8, data: { name: 'Baltic' } })));
    await screen.findByText('Baltic');

    fireEvent.click(screen.getByTestId('group-delete-7'));
    fireEvent.click(await screen.findByTestId('group-delete-confirm'));
    await waitFor(() => expect(provider.delete).toHaveBeenCalledWith(GROUPS, expect.objectContaining({ id: 7 })));
    expect(screen.getByTestId('group-7')).toBeTruthy();

    fireEvent.click(screen.getByTestId('group-delete-8'));
    fireEvent.click(await screen.findByTestId('group-delete-confirm'));
    await waitFor(() => expect(screen.queryByTestId('group-8')).toBeNull());
  });

  it('gives a sub-user no create, rename or delete', async () => {
    renderPage('3');
    await screen.findByTestId('group-7');
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('group-add')).toBeNull();
    expect(screen.queryByTestId('group-rename-7')).toBeNull();
    expect(screen.queryByTestId('group-delete-7')).toBeNull();
  });
});
