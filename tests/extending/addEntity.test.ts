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
import { createTestServer, engines, type TestServer } from '../api/helpers';

/**
 * An integrator adds an entity with one file (tests/fixtures/extension/crewCertificates/definition.ts:
 * the console part, the server part and the words) and nothing else. The reference server finds it,
 * makes its table and serves it; the real providers drive it over HTTP, on both engines; every
 * level sees and writes only its own part; the menu, the breadcrumb, the access matrix and the
 * catalogues pick it up.
 */
const NAME = 'device/crewCertificate';
const provider = createDataProvider(ENDPOINTS);
const page = { page: 1, perPage: 50 };
const byId = { field: 'id', order: 'ASC' as const };
let language: 'zh' | 'en' = 'en';

const certificate = (deviceId: number, number: string, extra: Record<string, unknown> = {}) => ({
  deviceId,
  holder: 'Li Wei',
  kind: 'stcw',
  number,
  issuedOn: '2026-01-10',
  expiresOn: '2027-01-10',
  remarks: '',
  ...extra,
});

const failure = async (work: Promise<unknown>) => {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CzHttpError);
  const e = error as CzHttpError;
  return { code: e.code, errors: (e.body as { errors?: Record<string, string> }).errors ?? {} };
};

describe.each(engines)('an entity added from one definition file (%s)', (engine) => {
  let server: TestServer;
  let address = '';
  /** Vessels by who sees them: oceanic's (one granted to its sub-user oceanops, one not) and polaris's. */
  const vessel = { granted: 0, notGranted: 0, foreign: 0 };
  const as = async (name: string) => setState({ ...NO_USER, token: await server.login(name), roles: [] });
  const visibleIds = async (name: string) => {
    await as(name);
    return (await provider.getList('system/deviceManagement', { pagination: { page: 1, perPage: 100 }, sort: byId, filter: {} })).data.map(
      (d) => d.id as number,
    );
  };

  beforeAll(async () => {
    server = await createTestServer(engine);
    address = await server.app.listen({ port: 0, host: '127.0.0.1' });
    setConfig({ baseURL: address, apiSegment: 'test', warnRefreshSeconds: 30, environment: 'development' });
    resetClient();
    configureClient({ getToken: () => getState().token, getLanguage: () => language });
    const granted = await visibleIds('oceanops');
    const own = await visibleIds('oceanic');
    const foreign = await visibleIds('polaris');
    vessel.granted = granted[0]!;
    vessel.notGranted = own.find((id) => !granted.includes(id))!;
    vessel.foreign = foreign[0]!;
    expect(vessel.granted && vessel.notGranted && vessel.foreign).toBeTruthy();
  });
  afterAll(async () => {
    resetClient();
    await server?.close();
  });

  it('has a table of its own, made from the declaration', async () => {
    const columns = await server.db.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'crew_certificates' AND table_schema = current_schema()`,
    );
    expect(columns.map((c) => c.column_name).sort()).toEqual(
      [
        'created_at',
        'created_by',
        'device_id',
        'expires_on',
        'holder',
        'id',
        'issued_on',
        'kind',
        'number',
        'remarks',
        'updated_at',
      ].sort(),
    );
    expect(ENDPOINTS[NAME]!.list.path).toBe('/deviceModule/crewCertificate/getAll');
  });

  it('is listed, filtered, searched, sorted, created, edited, shown, exported and deleted through the real dataProvider', async () => {
    await as('oceanic');
    const first = await provider.create(NAME, { data: certificate(vessel.granted, 'STCW-001') });
    const second = await provider.create(NAME, {
      data: certificate(vessel.granted, 'MED-002', { holder: 'Chen Hao', kind: 'medical', expiresOn: '2026-12-31' }),
    });
    expect(first.data).toMatchObject({ id: expect.any(Number), deviceName: expect.any(String), issuedOn: '2026-01-10', remarks: null });

    const sorted = await provider.getList(NAME, { pagination: page, sort: { field: 'expiresOn', order: 'ASC' }, filter: {} });
    expect(sorted.data.map((r) => r.number)).toEqual(['MED-002', 'STCW-001']);
    const medical = await provider.getList(NAME, { pagination: page, sort: byId, filter: { kind: 'medical' } });
    expect(medical.data.map((r) => r.id)).toEqual([second.data.id]);
    const searched = await provider.getList(NAME, { pagination: page, sort: byId, filter: { search: 'chen' } });
    expect(searched.data.map((r) => r.id)).toEqual([second.data.id]);
    const paged = await provider.getList(NAME, { pagination: { page: 2, perPage: 1 }, sort: byId, filter: {} });
    expect({ total: paged.total, ids: paged.data.map((r) => r.id) }).toEqual({ total: 2, ids: [second.data.id] });
    const ofVessel = await provider.getManyReference(NAME, {
      target: 'deviceId',
      id: vessel.granted,
      pagination: page,
      sort: byId,
      filter: {},
    });
    expect(ofVessel.total).toBe(2);

    await provider.update(NAME, { id: first.data.id, data: { ...first.data, remarks: 'Renewed' }, previousData: first.data });
    expect((await provider.getOne(NAME, { id: first.data.id })).data.remarks).toBe('Renewed');

    const csv = await fetch(
      `${address}/cz/test/deviceModule/crewCertificate/export?format=csv&kind=stcw&token=${getState().token}&lang=en`,
    );
    expect(csv.headers.get('content-disposition')).toMatch(/attachment; filename="crewCertificate-\d+\.csv"/);
    const lines = (await csv.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    // The vessel by its name (not its id), the kind by its name in the caller's language.
    expect(lines[0]).toBe('ID,Vessel,Holder,Kind,Certificate no.,Issued on,Expires on,Remarks');
    expect(lines.slice(1).map((l) => l.split(',').slice(2, 5))).toEqual([['Li Wei', 'STCW competency', 'STCW-001']]);

    await provider.delete(NAME, { id: second.data.id, previousData: second.data });
    expect((await provider.getList(NAME, { pagination: page, sort: byId, filter: {} })).data.map((r) => r.id)).toEqual([first.data.id]);
    const audit = await server.db.query<{ action: string }>(`SELECT action FROM audit_log WHERE entity = 'crewCertificate' ORDER BY id`);
    expect(audit.map((a) => a.action)).toEqual(['add', 'add', 'update', 'deleteById']);
  });

  it('reports every bad field at once in the caller language, a duplicate by its field, and writes nothing', async () => {
    await as('oceanic');
    const before = (await provider.getList(NAME, { pagination: page, sort: byId, filter: {} })).total ?? 0;
    const bad = { deviceId: vessel.granted, holder: '', kind: 'visa', number: '', issuedOn: '2026-02-30', expiresOn: '2025-01-01' };
    const en = await failure(provider.create(NAME, { data: bad }));
    expect(en.code).toBe(ErrorCode.Validation);
    expect(en.errors).toEqual({
      holder: 'required',
      kind: 'The kind must be STCW, medical, GMDSS or passport',
      number: 'required',
      issuedOn: 'The date must look like YYYY-MM-DD',
      expiresOn: 'The expiry date may not be before the issue date',
    });
    language = 'zh';
    const zh = await failure(provider.create(NAME, { data: { ...bad, issuedOn: '2026-01-01' } }));
    language = 'en';
    expect(zh.errors.expiresOn).toBe('到期日期不能早于签发日期');
    expect(zh.errors.kind).toBe('证书类型应为 STCW、健康证明、GMDSS 或护照');

    await provider.create(NAME, { data: certificate(vessel.notGranted, 'DUP-1') });
    const duplicate = await failure(provider.create(NAME, { data: certificate(vessel.notGranted, 'DUP-1') }));
    expect(duplicate.code).toBe(ErrorCode.Duplicate);
    expect(Object.keys(duplicate.errors)).toEqual(['number']);
    // The key is per vessel: the same number on another vessel is fine.
    await provider.create(NAME, { data: certificate(vessel.granted, 'DUP-1') });
    expect((await provider.getList(NAME, { pagination: page, sort: byId, filter: {} })).total).toBe(before + 2);
  });

  it('keeps each level to its own part: admin all, enterprise its vessels, sub-user its granted vessels read-only, another enterprise nothing', async () => {
    await as('polaris');
    const foreign = await provider.create(NAME, { data: certificate(vessel.foreign, 'POL-1') });
    const polarisSees = (await provider.getList(NAME, { pagination: page, sort: byId, filter: {} })).data;
    expect(polarisSees.map((r) => r.id)).toEqual([foreign.data.id]);

    await as('oceanic');
    const own = (await provider.getList(NAME, { pagination: page, sort: byId, filter: {} })).data;
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((r) => r.deviceId !== vessel.foreign)).toBe(true);
    const notFound = async (work: Promise<unknown>) => expect((await failure(work)).code).toBe(ErrorCode.NotFound);
    await notFound(provider.getOne(NAME, { id: foreign.data.id }));
    await notFound(provider.update(NAME, { id: foreign.data.id, data: { ...foreign.data, remarks: 'mine' }, previousData: foreign.data }));
    await notFound(provider.delete(NAME, { id: foreign.data.id, previousData: foreign.data }));
    await notFound(provider.create(NAME, { data: certificate(vessel.foreign, 'SNEAK-1') }));
    // Moving its own certificate onto a foreign vessel is refused as well.
    await notFound(provider.update(NAME, { id: own[0]!.id, data: { ...own[0], deviceId: vessel.foreign }, previousData: own[0]! }));

    await as('oceanops');
    const subSees = (await provider.getList(NAME, { pagination: page, sort: byId, filter: {} })).data;
    expect(subSees.length).toBeGreaterThan(0);
    expect(subSees.every((r) => r.deviceId === vessel.granted)).toBe(true);
    const granted = subSees[0]!;
    expect((await failure(provider.create(NAME, { data: certificate(vessel.granted, 'SUB-1') }))).code).toBe(ErrorCode.Forbidden);
    expect((await failure(provider.update(NAME, { id: granted.id, data: granted, previousData: granted }))).code).toBe(ErrorCode.Forbidden);
    expect((await failure(provider.delete(NAME, { id: granted.id, previousData: granted }))).code).toBe(ErrorCode.Forbidden);

    await as('admin');
    const all = (await provider.getList(NAME, { pagination: page, sort: byId, filter: {} })).data;
    expect(all.map((r) => r.id)).toEqual(expect.arrayContaining([foreign.data.id, ...own.map((r) => r.id)]));
    expect(
      (await provider.getList(NAME, { pagination: page, sort: byId, filter: { deviceId: vessel.foreign } })).data.map((r) => r.id),
    ).toEqual([foreign.data.id]);
  });

  it('appears in the menu, the breadcrumb, the access matrix and authProvider.canAccess, per level and action', async () => {
    expect(RESOURCES.map((r) => r.name)).toEqual(expect.arrayContaining([NAME, 'system/user']));
    expect(
      menuFor('3')
        .find((g) => g.path === '/device')!
        .children.map((c) => c.path),
    ).toContain(`/${NAME}`);
    expect(pageOf(`/${NAME}/12/show`)).toMatchObject({
      page: { path: `/${NAME}`, titleKey: `resources.${NAME}.name` },
      group: { path: '/device' },
    });
    expect(PAGE_ACCESS[`/${NAME}`]).toEqual(['1', '2', '3']);
    expect(['1', '2', '3'].map((level) => canAccessPage(level, `/${NAME}/create`))).toEqual([true, true, false]);
    expect(canAccessPage('3', `/${NAME}/5/show`)).toBe(true);

    const auth = createAuthProvider({ reload: () => undefined });
    await as('oceanops');
    await auth.getPermissions!({});
    expect(await auth.canAccess!({ resource: NAME, action: 'list' })).toBe(true);
    expect(await auth.canAccess!({ resource: NAME, action: 'export' })).toBe(true);
    expect(await auth.canAccess!({ resource: NAME, action: 'delete' })).toBe(false);
    await as('oceanic');
    await auth.getPermissions!({});
    expect(await auth.canAccess!({ resource: NAME, action: 'delete' })).toBe(true);
  });

  it('brings its words into both catalogues, its title a plural in English and one form in Chinese', async () => {
    await Promise.all([loadMessages('zh'), loadMessages('en')]);
    const i18n = createI18nProvider('en', { zh: resourceMessages('zh'), en: resourceMessages('en') });
    expect(i18n.translate(`resources.${NAME}.name`, { smart_count: 2 })).toBe('Crew certificates');
    expect(i18n.translate(`resources.${NAME}.fields.expiresOn`)).toBe('Expires on');
    await i18n.changeLocale('zh');
    expect(i18n.translate(`resources.${NAME}.name`, { smart_count: 2 })).toBe('船员证书');
    expect(i18n.translate(`resources.${NAME}.kinds.gmdss`)).toBe('GMDSS 操作员证书');
  });
});
