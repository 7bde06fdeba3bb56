import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureClient, resetClient } from '../../src/api';
import { setConfig } from '../../src/config';
import { createAuthProvider } from '../../src/authProvider';
import { createDataProvider, CzHttpError } from '../../src/data/dataProvider';
import { ErrorCode } from '../../src/domain/errorCodes';
import { createI18nProvider } from '../../src/i18n/i18nProvider';
import { loadMessages } from '../../src/i18n/messages';
import { canAccessPage, PAGE_ACCESS } from '../../src/navigation/access';
import { menuFor, pageOf } from '../../src/navigation/menu';
import { ENDPOINTS, RESOURCES, resourceMessages } from '../../src/resources';
import { getState, NO_USER, setState } from '../../src/state/clientState';
import { createTestServer, type TestServer } from '../api/helpers';

/**
 * An integrator adds an entity with one definition file (tests/fixtures/extension/portCalls/
 * definition.ts, its words inside it) and nothing else: the real providers drive it against the
 * real server, and the menu, the breadcrumb, the access matrix and the catalogue pick it up.
 */
const NAME = 'device/portCall';
let server: TestServer;
const provider = createDataProvider(ENDPOINTS);

beforeAll(async () => {
  server = await createTestServer('pglite');
  const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
  setConfig({ baseURL: address, apiSegment: 'test', warnRefreshSeconds: 30, environment: 'development' });
  resetClient();
  configureClient({ getToken: () => getState().token, getLanguage: () => 'en' });
  setState({ token: await server.login('oceanic') });
});
afterAll(async () => {
  resetClient();
  await server?.close();
});

describe('an entity added from one definition file', () => {
  it('is registered next to the product resources', () => {
    expect(RESOURCES.map((r) => r.name)).toContain(NAME);
    expect(RESOURCES.map((r) => r.name)).toContain('system/user');
  });

  it('is listed, filtered, created, edited, shown and deleted through the real dataProvider', async () => {
    const vessels = await provider.getList('system/deviceManagement', {
      pagination: { page: 1, perPage: 1 },
      sort: { field: 'id', order: 'ASC' },
      filter: {},
    });
    const deviceId = vessels.data[0]!.id;
    const created = await provider.create(NAME, {
      data: {
        deviceId,
        voyageNo: 'PC-9001',
        destination: 'Rotterdam',
        etd: '2026-12-01T08:00:00Z',
        eta: '2026-12-09T08:00:00Z',
        agent: 'North Agency',
      },
    });
    const id = created.data.id;
    expect(id).toBeTypeOf('number');

    const found = await provider.getList(NAME, {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'id', order: 'ASC' },
      filter: { search: 'PC-9001' },
    });
    expect(found.data.map((r) => r.id)).toEqual([id]);
    const byVessel = await provider.getManyReference(NAME, {
      target: 'deviceId',
      id: deviceId,
      pagination: { page: 1, perPage: 50 },
      sort: { field: 'id', order: 'ASC' },
      filter: {},
    });
    expect(byVessel.data.every((r) => r.deviceId === deviceId)).toBe(true);
    expect(byVessel.data.map((r) => r.id)).toContain(id);

    await provider.update(NAME, { id, data: { ...created.data, destination: 'Hamburg' }, previousData: created.data });
    expect((await provider.getOne(NAME, { id })).data.destination).toBe('Hamburg');

    await provider.delete(NAME, { id, previousData: created.data });
    const after = await provider.getList(NAME, {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'id', order: 'ASC' },
      filter: { search: 'PC-9001' },
    });
    expect(after.total).toBe(0);
  });

  it("refuses a bad record with the field and the message in the user's language, and writes nothing", async () => {
    const before = await provider.getList(NAME, { pagination: { page: 1, perPage: 1 }, sort: { field: 'id', order: 'ASC' }, filter: {} });
    const error = await provider
      .create(NAME, { data: { deviceId: 1, voyageNo: '', destination: 'X', etd: 'soon', eta: '2026-12-09T08:00:00Z', agent: 'A' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CzHttpError);
    expect((error as CzHttpError).code).toBe(ErrorCode.Validation);
    const errors = ((error as CzHttpError).body as { errors?: Record<string, string> }).errors ?? {};
    expect(Object.keys(errors)).toEqual(expect.arrayContaining(['voyageNo']));
    expect(errors.voyageNo).toMatch(/[a-z]/i);
    const after = await provider.getList(NAME, { pagination: { page: 1, perPage: 1 }, sort: { field: 'id', order: 'ASC' }, filter: {} });
    expect(after.total).toBe(before.total);
  });

  it('appears in the menu, the breadcrumb and the access matrix, per level and action', async () => {
    expect(
      menuFor('2')
        .find((g) => g.path === '/device')!
        .children.map((c) => c.path),
    ).toContain(`/${NAME}`);
    expect(pageOf(`/${NAME}/12`)).toMatchObject({
      page: { path: `/${NAME}`, titleKey: 'resources.device/portCall.name' },
      group: { path: '/device' },
    });
    expect(PAGE_ACCESS[`/${NAME}`]).toEqual(['1', '2', '3']);
    expect(['1', '2', '3'].map((level) => canAccessPage(level, `/${NAME}/create`))).toEqual([true, true, false]);
    expect(canAccessPage('3', `/${NAME}`)).toBe(true);
    expect(canAccessPage('3', `/${NAME}/5/show`)).toBe(true);

    // authProvider.canAccess as react-admin calls it, for a sub-user and an enterprise user logged in for real.
    const auth = createAuthProvider({ reload: () => undefined });
    const as = async (name: string) => {
      setState({ token: await server.login(name), ...NO_USER, roles: [] });
      await auth.getPermissions!({});
    };
    await as('oceanops');
    expect(await auth.getPermissions!({})).toBe('3');
    expect(await auth.canAccess!({ resource: NAME, action: 'list' })).toBe(true);
    expect(await auth.canAccess!({ resource: NAME, action: 'delete' })).toBe(false);
    expect(await auth.canAccess!({ resource: NAME, action: 'export' })).toBe(false);
    await as('oceanic');
    expect(await auth.canAccess!({ resource: NAME, action: 'delete' })).toBe(true);
    expect(await auth.canAccess!({ resource: 'system/firmware', action: 'list' })).toBe(false);
    expect(await auth.canAccess!({ resource: 'nowhere/undeclared', action: 'list' })).toBe(false);
  });

  it('brings its words into both catalogues', async () => {
    await Promise.all([loadMessages('zh'), loadMessages('en')]);
    const i18n = createI18nProvider('en', { zh: resourceMessages('zh'), en: resourceMessages('en') });
    expect(i18n.translate('resources.device/portCall.name', { smart_count: 2 })).toBe('Port calls');
    expect(i18n.translate('resources.device/portCall.fields.etd')).toBe('Departure');
    expect(i18n.translate('resources.system/user.fields.name')).toBe('Username');
    await i18n.changeLocale('zh');
    expect(i18n.translate('resources.device/portCall.fields.etd')).toBe('离港时间');
  });
});
