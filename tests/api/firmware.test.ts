import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, engines, type TestServer } from './helpers';
import { ErrorCode } from '../../src/domain/errorCodes';
import { packageFields, upload } from './firmwareFixtures';

const LIMIT = 64 * 1024;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe.each(engines)('firmware packages on %s', (engine) => {
  let s: TestServer;
  let dir: string;
  let admin: string;
  const files = async () => (await readdir(dir)).sort();
  const count = async () => (await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM firmware_packages'))[0]!.n;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'firmware-test-'));
    s = await createTestServer(engine, { firmwareDir: dir, firmwareMaxBytes: LIMIT });
    admin = await s.login('admin');
  });
  afterAll(async () => {
    await s.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('states the size limit in force', async () => {
    const res = await s.call({ method: 'GET', url: `${s.base}/deviceModule/firmware/getConfig`, token: admin });
    expect(res.code).toBe(0);
    expect(res.data).toMatchObject({ maxBytes: LIMIT, maxMb: 0.063, versionTypes: ['release', 'beta'] });
  });

  it('stores an upload on disk with its size and SHA-256', async () => {
    const content = randomBytes(40_000);
    const res = await upload(s, admin, packageFields({ version: 'V1.2.3' }), content);
    expect(res.code).toBe(0);
    expect(res.data).toMatchObject({
      name: 'vt2000.bin',
      version: 'V1.2.3',
      deviceType: 'VSAT terminal',
      model: 'VT-2000',
      customer: 'Oceanic Shipping',
      versionType: 'release',
      enabled: true,
      fileSize: 40_000,
      status: 'none',
      updateInfo: 'Fixes tracking drift',
    });
    expect(res.data.sha256).toBe(sha256(content));
    expect(res.data).not.toHaveProperty('storageKey');
    expect(await files()).toHaveLength(1);
    const one = await s.call({ method: 'GET', url: `${s.base}/deviceModule/firmware/getById?id=${res.data.id}`, token: admin });
    expect(one.data.sha256).toBe(sha256(content));
  });

  it.each([['V1.0'], ['1.0.0'], ['V100.0.0'], ['v1.0.0'], ['V1.0.0-beta'], ['V1..0']])(
    'refuses version %s (Format Like V1.0.0)',
    async (version) => {
      const before = await count();
      const en = await upload(s, admin, packageFields({ version }), randomBytes(100));
      expect(en.code).toBe(ErrorCode.Validation);
      expect(en.data).toContainEqual({ field: 'version', message: 'Format Like V1.0.0' });
      const zh = await upload(s, admin, packageFields({ version }), randomBytes(100), 'zh');
      expect(zh.data).toContainEqual({ field: 'version', message: '版本格式应为 V1.0.0' });
      expect(await count()).toBe(before);
    },
  );

  it('accepts one or two digits in each part', async () => {
    const res = await upload(s, admin, packageFields({ version: 'V10.2.33' }), randomBytes(10));
    expect(res.code).toBe(0);
  });

  it('requires device type, customer, model and version, and keeps nothing', async () => {
    const before = { rows: await count(), files: (await files()).length };
    const res = await upload(s, admin, { versionType: 'beta' }, randomBytes(100));
    expect(res.code).toBe(ErrorCode.Validation);
    expect(res.data.map((e: { field: string }) => e.field).sort()).toEqual(['customer', 'deviceType', 'model', 'version']);
    expect(res.data.every((e: { message: string }) => e.message === 'required')).toBe(true);
    const blank = await upload(s, admin, packageFields({ customer: '  ' }), randomBytes(100), 'zh');
    expect(blank.data).toEqual([{ field: 'customer', message: '必填项' }]);
    const noFile = await upload(s, admin, packageFields({ version: 'V9.9.9' }));
    expect(noFile.code).toBe(ErrorCode.UploadRejected);
    expect({ rows: await count(), files: (await files()).length }).toEqual(before);
  });

  it('refuses the same version twice for one model, naming the field', async () => {
    expect((await upload(s, admin, packageFields({ version: 'V2.0.0' }), randomBytes(100))).code).toBe(0);
    const again = await upload(s, admin, packageFields({ version: 'V2.0.0', customer: 'Someone else' }), randomBytes(100));
    expect(again.code).toBe(ErrorCode.Duplicate);
    expect(again.msg).toBe('This model already has firmware of this version');
    expect(again.data).toEqual([{ field: 'version', message: 'This model already has firmware of this version' }]);
    const otherModel = await upload(s, admin, packageFields({ version: 'V2.0.0', model: 'VT-3000' }), randomBytes(100));
    expect(otherModel.code).toBe(0);
  });

  it('refuses a file over the limit, removes the partial file and records nothing', async () => {
    const before = { rows: await count(), files: await files() };
    const res = await upload(s, admin, packageFields({ version: 'V3.0.0' }), randomBytes(LIMIT + 1));
    expect(res.code).toBe(ErrorCode.UploadRejected);
    expect(res.msg).toBe('The firmware file must not be larger than 0.063MB');
    expect({ rows: await count(), files: await files() }).toEqual(before);
    const atLimit = await upload(s, admin, packageFields({ version: 'V3.0.0' }), randomBytes(LIMIT));
    expect(atLimit.code).toBe(0);
    expect(atLimit.data.fileSize).toBe(LIMIT);
  });

  it('refuses levels 2 and 3 on every firmware endpoint', async () => {
    for (const name of ['oceanic', 'oceanops']) {
      const token = await s.login(name);
      for (const url of ['getAll', 'getConfig', 'getById?id=1', 'rollout/getAll?firmwareId=1']) {
        const res = await s.call({ method: 'GET', url: `${s.base}/deviceModule/firmware/${url}`, token });
        expect(res.code, `${name} ${url}`).toBe(ErrorCode.Forbidden);
        expect(res.data).toBeNull();
      }
      const add = await upload(s, token, packageFields({ version: 'V7.0.0' }), randomBytes(10));
      expect(add.code).toBe(ErrorCode.Forbidden);
      const del = await s.call({ method: 'DELETE', url: `${s.base}/deviceModule/firmware/deleteById?id=1`, token });
      expect(del.code).toBe(ErrorCode.Forbidden);
      const roll = await s.call({
        method: 'POST',
        url: `${s.base}/deviceModule/firmware/rollout/add`,
        token,
        payload: { firmwareId: 1, deviceIds: [1], maxConcurrent: 1 },
      });
      expect(roll.code).toBe(ErrorCode.Forbidden);
    }
    expect(await count()).toBeGreaterThan(0);
  });

  it('lists with sort by version numbers, filters and pages', async () => {
    const list = (q: string) => s.call({ method: 'GET', url: `${s.base}/deviceModule/firmware/getAll?${q}`, token: admin });
    const byVersion = await list('pageIndex=1&pageSize=50&sort=version&order=asc&model=VT-2000');
    const versions = byVersion.data.list.map((r: { version: string }) => r.version);
    expect(versions).toEqual(['V1.2.3', 'V2.0.0', 'V3.0.0', 'V10.2.33']);
    expect(byVersion.data.total).toBe(4);
    const page2 = await list('pageIndex=2&pageSize=3&sort=version&order=asc&model=VT-2000');
    expect(page2.data.list.map((r: { version: string }) => r.version)).toEqual(['V10.2.33']);
    expect(page2.data.total).toBe(4);
    const search = await list('name=VT-3000');
    expect(search.data.list.map((r: { model: string }) => r.model)).toEqual(['VT-3000']);
  });

  it('enables, disables, edits and deletes (the file goes too)', async () => {
    const created = await upload(s, admin, packageFields({ version: 'V5.5.5' }), randomBytes(500));
    const id = created.data.id;
    const filesBefore = (await files()).length;
    const off = await s.call({
      method: 'POST',
      url: `${s.base}/deviceModule/firmware/setEnabled`,
      token: admin,
      payload: { id, enabled: false },
    });
    expect(off.data.enabled).toBe(false);
    const disabled = await s.call({ method: 'GET', url: `${s.base}/deviceModule/firmware/getAll?enabled=false`, token: admin });
    expect(disabled.data.list.map((r: { id: number }) => r.id)).toEqual([id]);
    const edit = await s.call({
      method: 'POST',
      url: `${s.base}/deviceModule/firmware/update`,
      token: admin,
      payload: { id, customer: 'Polaris', versionType: 'beta', enabled: true, updateInfo: 'Beta build' },
    });
    expect(edit.data).toMatchObject({
      customer: 'Polaris',
      versionType: 'beta',
      enabled: true,
      updateInfo: 'Beta build',
      version: 'V5.5.5',
    });
    const badType = await s.call({
      method: 'POST',
      url: `${s.base}/deviceModule/firmware/update`,
      token: admin,
      payload: { id, customer: 'Polaris', versionType: 'nightly' },
    });
    expect(badType.code).toBe(ErrorCode.Validation);
    const del = await s.call({ method: 'DELETE', url: `${s.base}/deviceModule/firmware/deleteById?id=${id}`, token: admin });
    expect(del.code).toBe(0);
    expect((await files()).length).toBe(filesBefore - 1);
    const gone = await s.call({ method: 'GET', url: `${s.base}/deviceModule/firmware/getById?id=${id}`, token: admin, lang: 'en' });
    expect(gone.code).toBe(ErrorCode.NotFound);
    expect(gone.msg).toBe('No such firmware');
  });
});
