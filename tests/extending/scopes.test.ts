import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/domain/errorCodes';
import { createTestServer, demoIds, engines, type TestServer } from '../api/helpers';

/**
 * The two other scopes a declared resource can have, through the API as any client calls it:
 * by enterprise (tests/fixtures/extension/agencyContacts) and global (tests/fixtures/extension/ports).
 */
describe.each(engines)('declared resources scoped by enterprise and global (%s)', (engine) => {
  let server: TestServer;
  const tokens: Record<string, string> = {};
  let ids: Record<string, number> = {};
  const api = (token: string, route: string, payload?: object, lang: 'zh' | 'en' = 'en', method?: 'DELETE') =>
    server.call({
      method: method ?? (payload ? 'POST' : 'GET'),
      url: `${server.base}/supportModule/${route}`,
      token,
      lang,
      ...(payload ? { payload } : {}),
    });
  const names = async (token: string, route: string) =>
    ((await api(token, route)).data.list as { name: string }[]).map((r) => r.name).sort();

  beforeAll(async () => {
    server = await createTestServer(engine);
    for (const name of ['admin', 'oceanic', 'oceanops', 'polaris', 'polarisops']) tokens[name] = await server.login(name);
    ids = await demoIds(server);
  });
  afterAll(async () => server?.close());

  it('by enterprise: level 2 writes its own, level 3 reads its enterprise, level 1 all and names the owner, others see nothing', async () => {
    const own = await api(tokens.oceanic!, 'agencyContact/add', { name: 'Wilhelmsen', port: 'Rotterdam', phone: '+31 10 000' });
    expect(own).toMatchObject({ code: 0, data: { ownerId: ids.oceanic, name: 'Wilhelmsen' } });
    // Naming another enterprise is refused; level 1 may.
    expect((await api(tokens.oceanic!, 'agencyContact/add', { name: 'X', port: 'Y', ownerId: ids.polaris })).code).toBe(
      ErrorCode.Forbidden,
    );
    const forPolaris = await api(tokens.admin!, 'agencyContact/add', { name: 'GAC', port: 'Singapore', ownerId: ids.polaris });
    expect(forPolaris.data.ownerId).toBe(ids.polaris);

    expect(await names(tokens.oceanic!, 'agencyContact/getAll')).toEqual(['Wilhelmsen']);
    expect(await names(tokens.oceanops!, 'agencyContact/getAll')).toEqual(['Wilhelmsen']);
    expect(await names(tokens.polaris!, 'agencyContact/getAll')).toEqual(['GAC']);
    expect(await names(tokens.polarisops!, 'agencyContact/getAll')).toEqual(['GAC']);
    expect(await names(tokens.admin!, 'agencyContact/getAll')).toEqual(['GAC', 'Wilhelmsen']);

    expect((await api(tokens.oceanops!, 'agencyContact/add', { name: 'Sub', port: 'Z' })).code).toBe(ErrorCode.Forbidden);
    expect((await api(tokens.polaris!, `agencyContact/getById?id=${own.data.id}`)).code).toBe(ErrorCode.NotFound);
    expect((await api(tokens.polaris!, 'agencyContact/update', { id: own.data.id, name: 'Taken', port: 'Rotterdam' })).code).toBe(
      ErrorCode.NotFound,
    );
    expect((await api(tokens.polaris!, `agencyContact/deleteById?id=${own.data.id}`, undefined, 'en', 'DELETE')).code).toBe(
      ErrorCode.NotFound,
    );

    // Level 1 changing a row without naming an owner keeps the row's owner.
    const edited = await api(tokens.admin!, 'agencyContact/update', { id: forPolaris.data.id, name: 'GAC Shipping', port: 'Singapore' });
    expect(edited.data).toMatchObject({ ownerId: ids.polaris, name: 'GAC Shipping' });
    // The same name and port twice for one enterprise is a duplicate; for another enterprise it is not.
    const again = await api(tokens.oceanic!, 'agencyContact/add', { name: 'Wilhelmsen', port: 'Rotterdam' });
    expect(again).toMatchObject({ code: ErrorCode.Duplicate, data: [{ field: 'name' }] });
    expect((await api(tokens.polaris!, 'agencyContact/add', { name: 'Wilhelmsen', port: 'Rotterdam' })).code).toBe(0);
  });

  it('global: every level reads, only the declared levels write, rules answer in the caller language', async () => {
    const port = await api(tokens.admin!, 'port/add', { code: 'NLRTM', name: 'Rotterdam', latitude: '51.95' });
    expect(port).toMatchObject({ code: 0, data: { code: 'NLRTM', latitude: 51.95 } });
    for (const name of ['oceanic', 'oceanops', 'polaris']) expect(await names(tokens[name]!, 'port/getAll')).toEqual(['Rotterdam']);
    expect((await api(tokens.oceanic!, 'port/add', { code: 'SGSIN', name: 'Singapore', latitude: 1.26 })).code).toBe(ErrorCode.Forbidden);
    expect((await api(tokens.oceanic!, `port/deleteById?id=${port.data.id}`, undefined, 'en', 'DELETE')).code).toBe(ErrorCode.Forbidden);

    const bad = await api(tokens.admin!, 'port/add', { code: 'rtm', name: '', latitude: 95 }, 'zh');
    expect(bad.code).toBe(ErrorCode.Validation);
    expect(Object.fromEntries((bad.data as { field: string; message: string }[]).map((e) => [e.field, e.message]))).toEqual({
      code: '港口代码应为 5 个大写字母',
      name: '必填项',
      latitude: '纬度必须在 -90 到 90 之间',
    });
    expect((await api(tokens.admin!, 'port/add', { code: 'NLRTM', name: 'Again', latitude: 0 })).data).toEqual([
      { field: 'code', message: 'Already exists' },
    ]);
  });

  it('lists every declared route in the OpenAPI document, and serves no route for an action nobody may do', async () => {
    const doc = (await server.app.inject({ url: `${server.base}/openapi.json` })).json() as { paths: Record<string, unknown> };
    const paths = Object.keys(doc.paths);
    for (const route of ['getAll', 'getById', 'add', 'update', 'deleteById']) {
      expect(paths).toContain(`${server.base}/supportModule/port/${route}`);
      expect(paths).toContain(`${server.base}/deviceModule/voyage/${route}`);
      expect(paths).toContain(`${server.base}/deviceModule/camera/${route}`);
    }
    expect(paths).toContain(`${server.base}/deviceModule/crewCertificate/export`);
    // The ports declare no export.
    expect(paths).not.toContain(`${server.base}/supportModule/port/export`);
    expect((await api(tokens.admin!, 'port/export')).status).toBe(404);
  });
});
