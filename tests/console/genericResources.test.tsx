import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReactNode } from 'react';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { AdminContext, Form, ResourceContextProvider, ResourceDefinitionContextProvider, type DataProvider } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { createI18nProvider } from '../../src/i18n/i18nProvider';
import { loadMessages } from '../../src/i18n/messages';
import { RESOURCES, resourceMessages } from '../../src/resources';
import { ColumnValue } from '../../src/resources/generic/ColumnValue';
import { FieldInput, ReferencePicker } from '../../src/resources/generic/FieldInput';
import { ResourceShow } from '../../src/resources/generic/ResourceShow';
import { ENTERPRISE_REFERENCE, VESSEL_REFERENCE } from '../../src/resources/references';
import type { FieldDef } from '../../src/resources/types';
import { NO_USER, restoreState, setState } from '../../src/state/clientState';
import { buildTheme } from '../../src/theme/buildTheme';
import { PALETTES } from '../../src/theme/palettes';
import { levelAuthProvider } from '../component/levelAuthProvider';

/**
 * Rough edges of the declared resources: pickers narrowed by another field of the form, enterprises
 * by the name people know, no empty action bar on a Show page the reader may not change. (The filter
 * bar's line, a matter of layout, is measured in a browser: tests/e2e/filterBar.test.ts.)
 */
const OCEANIC = { id: 3, name: 'oceanic', nickname: 'Oceanic Shipping', company: 'Oceanic Shipping Co.', permissionLevel: '2' };
const POLARIS = { id: 5, name: 'polaris', nickname: null, company: 'Polaris Marine Ltd.', permissionLevel: '2' };
const RULE = {
  id: 1,
  ownerId: 3,
  name: 'Major alarms',
  enabled: true,
  codes: [],
  minSeverity: 'major',
  deviceIds: [],
  groupIds: [],
  contactPointIds: [],
  userIds: [],
  escalateContactPointIds: [],
};

/** A dataProvider that answers every list with nothing and records the filters it was asked for. */
function recordingProvider() {
  const lists: { resource: string; filter: Record<string, unknown> }[] = [];
  const users: Record<number, unknown> = { 3: OCEANIC, 5: POLARIS };
  const provider = {
    getList: async (resource: string, { filter }: { filter: Record<string, unknown> }) => {
      lists.push({ resource, filter });
      return { data: [], total: 0 };
    },
    getOne: async (resource: string, { id }: { id: number }) => ({ data: resource === 'system/user' ? users[id] : { ...RULE, id } }),
    getMany: async (resource: string, { ids }: { ids: number[] }) => ({
      data: ids.map((id) => (resource === 'system/user' ? users[id] : { id, name: `record ${id}` })),
    }),
  } as unknown as DataProvider;
  return { provider, lists };
}

async function renderIn(ui: ReactNode, { provider, path = '/', route = '*' }: { provider: DataProvider; path?: string; route?: string }) {
  await loadMessages('en');
  const i18n = createI18nProvider('en', { zh: resourceMessages('zh'), en: resourceMessages('en') });
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AdminContext i18nProvider={i18n} dataProvider={provider} authProvider={levelAuthProvider} theme={buildTheme(PALETTES[0]!.primary)}>
        <Routes>
          <Route path={route} element={ui} />
        </Routes>
      </AdminContext>
    </MemoryRouter>,
  );
}

/** The form's values as text, and a button that names another enterprise. */
function FormProbe() {
  const values = useWatch();
  const { setValue } = useFormContext();
  return (
    <>
      <output data-testid="values">{JSON.stringify(values)}</output>
      <button type="button" onClick={() => setValue('ownerId', 5)}>
        other enterprise
      </button>
    </>
  );
}

const lastFilter = (lists: { resource: string; filter: Record<string, unknown> }[], resource: string) =>
  lists.filter((l) => l.resource === resource).at(-1)?.filter;

beforeEach(() => {
  restoreState();
  setState({ token: 'T', permissionLevel: '1', id: 1, name: 'admin', roles: ['1'], timeZone: 8, tabs: [] });
});
afterEach(() => setState({ ...NO_USER, roles: [], token: null }));

describe('a reference narrowed by another field (filterFrom)', () => {
  const vessels: FieldDef = {
    source: 'deviceIds',
    kind: 'references',
    reference: { ...VESSEL_REFERENCE, filterFrom: { ownerId: 'ownerId' } },
    on: { create: true },
  };

  it("lists only the named enterprise's records, and clears the picks when another enterprise is named", async () => {
    const { provider, lists } = recordingProvider();
    await renderIn(
      <ResourceContextProvider value="alarm/rule">
        <Form defaultValues={{ ownerId: 3, deviceIds: [11, 12] }}>
          <FieldInput field={vessels} mode="create" />
          <FormProbe />
        </Form>
      </ResourceContextProvider>,
      { provider },
    );
    await waitFor(() => expect(lastFilter(lists, 'system/deviceManagement')).toMatchObject({ ownerId: 3 }));
    expect(screen.getByTestId('values').textContent).toContain('"deviceIds":[11,12]');
    fireEvent.click(screen.getByRole('button', { name: 'other enterprise' }));
    await waitFor(() => expect(lastFilter(lists, 'system/deviceManagement')).toMatchObject({ ownerId: 5 }));
    await waitFor(() => expect(screen.getByTestId('values').textContent).toContain('"deviceIds":[]'));
  });

  it('narrows a single reference too, and nothing while the form names no enterprise', async () => {
    const { provider, lists } = recordingProvider();
    const device = { ...VESSEL_REFERENCE, filterFrom: { ownerId: 'enterpriseId' } };
    await renderIn(
      <ResourceContextProvider value="system/deviceAuth">
        <Form defaultValues={{ enterpriseId: 5 }}>
          <ReferencePicker source="deviceId" reference={device} />
        </Form>
        <Form defaultValues={{}}>
          <ReferencePicker source="otherDeviceId" reference={device} />
        </Form>
      </ResourceContextProvider>,
      { provider },
    );
    await waitFor(() => expect(lists.filter((l) => l.resource === 'system/deviceManagement')).toHaveLength(2));
    const filters = lists.filter((l) => l.resource === 'system/deviceManagement').map((l) => l.filter);
    expect(filters).toContainEqual({ ownerId: 5 });
    expect(filters).toContainEqual({});
  });

  it('is used by the device authorization form: a device of the enterprise named', () => {
    const auth = RESOURCES.find((r) => r.name === 'system/deviceAuth')!;
    expect(auth.fields.find((f) => f.source === 'deviceId')!.reference!.filterFrom).toEqual({ ownerId: 'enterpriseId' });
  });
});

describe('an enterprise by the name people know', () => {
  it('shows its display name, not its login name, in a picker and in a column', async () => {
    const { provider } = recordingProvider();
    await renderIn(
      <ResourceContextProvider value="alarm/rule">
        <Form defaultValues={{ ownerId: 3 }}>
          <ReferencePicker source="ownerId" reference={ENTERPRISE_REFERENCE} label="Enterprise" />
        </Form>
        <ColumnValue column={{ source: 'ownerId', kind: 'reference', reference: ENTERPRISE_REFERENCE }} record={{ id: 9, ownerId: 5 }} />
      </ResourceContextProvider>,
      { provider },
    );
    await waitFor(() => expect((screen.getByLabelText('Enterprise') as HTMLInputElement).value).toBe('Oceanic Shipping'));
    // No display name: its company.
    expect(await screen.findByText('Polaris Marine Ltd.')).toBeTruthy();
    expect(screen.queryByText('polaris')).toBeNull();
  });
});

/** The alarm rules registered as the console registers them (with an edit page), as react-admin's own Show actions read it. */
const RegisteredRules = ({ children }: { children: ReactNode }) => (
  <ResourceDefinitionContextProvider
    definitions={{ 'alarm/rule': { name: 'alarm/rule', hasList: true, hasEdit: true, hasShow: true, hasCreate: true } }}
  >
    <ResourceContextProvider value="alarm/rule">{children}</ResourceContextProvider>
  </ResourceDefinitionContextProvider>
);

describe('a Show page the reader may not change', () => {
  it('has no empty action bar for a sub-user, and the Edit button for an editor', async () => {
    const rules = RESOURCES.find((r) => r.name === 'alarm/rule')!;
    setState({ permissionLevel: '3', roles: ['3'], id: 4 });
    const { provider } = recordingProvider();
    const view = await renderIn(
      <RegisteredRules>
        <ResourceShow definition={rules} />
      </RegisteredRules>,
      { provider, path: '/alarm/rule/1/show', route: '/alarm/rule/:id/show' },
    );
    await screen.findByText('Major alarms');
    expect(view.container.querySelector('.RaTopToolbar-root, .MuiToolbar-root')).toBeNull();
    view.unmount();

    setState({ permissionLevel: '2', roles: ['2'], id: 3 });
    await renderIn(
      <RegisteredRules>
        <ResourceShow definition={rules} />
      </RegisteredRules>,
      { provider, path: '/alarm/rule/1/show', route: '/alarm/rule/:id/show' },
    );
    expect(await screen.findByRole('link', { name: /edit/i })).toBeTruthy();
  });
});
