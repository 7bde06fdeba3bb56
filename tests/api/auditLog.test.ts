import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { ErrorCode } from '../../src/domain/errorCodes';
import { createTestServer, engines, type TestServer } from './helpers';

/** The audit log: every change made through the API, who, when, from where, before and after, never a secret. */
describe.each(engines)('audit log (%s)', (engine) => {
  let s: TestServer;
  const tokens: Record<string, string> = {};
  const dm = (path: string) => `${s.base}/deviceModule/${path}`;
  const log = (who: string, query = '') =>
    s.call({ url: `${s.base}/supportModule/auditLog/getAll?pageSize=100${query}`, token: tokens[who], lang: 'en' });

  beforeAll(async () => {
    s = await createTestServer(engine);
    for (const name of ['admin', 'oceanic', 'oceanops', 'polaris']) tokens[name] = await s.login(name);
  });
  afterAll(() => s.close());

  it('records a create, an update (only the fields that changed) and a delete, with who and from where', async () => {
    const created = await s.call({ method: 'POST', url: dm('deviceGroup/add'), token: tokens.oceanic, payload: { name: 'Reefers' } });
    expect(created.code).toBe(ErrorCode.Ok);
    const id = created.data.id as number;
    await s.call({ method: 'POST', url: dm('deviceGroup/update'), token: tokens.oceanic, payload: { id, name: 'Reefer fleet' } });
    await s.call({ method: 'DELETE', url: dm(`deviceGroup/deleteById?id=${id}`), token: tokens.oceanic });

    const { data } = await log('oceanic', `&entity=deviceGroup&entityId=${id}`);
    expect(data.list.map((e: { action: string }) => e.action)).toEqual(['deleteById', 'update', 'add']);
    // A page further on: one entry a page, the second newest on page 2, with the total.
    const page = await s.call({
      url: `${s.base}/supportModule/auditLog/getAll?pageSize=1&pageIndex=2&entity=deviceGroup&entityId=${id}`,
      token: tokens.oceanic,
    });
    expect(page.data.list.map((e: { action: string }) => e.action)).toEqual(['update']);
    expect(page.data.total).toBe(3);
    const [deleted, updated, added] = data.list;
    expect(added).toMatchObject({
      userName: 'oceanic',
      userLevel: '2',
      method: 'POST',
      route: '/deviceModule/deviceGroup/add',
      entity: 'deviceGroup',
      entityId: String(id),
      before: null,
    });
    expect(added.after).toMatchObject({ id, name: 'Reefers' });
    expect(added.address).toBe('127.0.0.1');
    expect(updated.before).toEqual({ name: 'Reefers' });
    expect(updated.after).toEqual({ name: 'Reefer fleet' });
    // As people read it: the changed fields only, no ids, time stamps or search text.
    expect(updated.changes).toEqual([{ field: 'name', before: 'Reefers', after: 'Reefer fleet' }]);
    expect(added.changes.map((c: { field: string }) => c.field)).toContain('name');
    expect(added.changes.map((c: { field: string }) => c.field)).not.toEqual(expect.arrayContaining(['id']));
    expect(JSON.stringify([added.changes, deleted.changes])).not.toMatch(/"field":"(id|createdAt|updatedAt|searchText|createdBy)"/);
    expect(deleted.before).toMatchObject({ id, name: 'Reefer fleet' });
    expect(deleted.after).toBeNull();
    expect(Date.parse(added.at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('never records a password, a password hash or a token', async () => {
    const created = await s.call({
      method: 'POST',
      url: `${s.base}/users/addUser`,
      token: tokens.oceanic,
      payload: { name: 'auditee', password: 'Secret9876', repassword: 'Secret9876', permissionLevel: '3' },
    });
    expect(created.code).toBe(ErrorCode.Ok);
    const reset = await s.call({
      method: 'POST',
      url: `${s.base}/users/updatePassword?id=${created.data.id}&password=Other5432`,
      token: tokens.oceanic,
    });
    expect(reset.code).toBe(ErrorCode.Ok);
    const { data } = await log('oceanic', '&entity=user');
    const text = JSON.stringify(data.list);
    expect(data.list.map((e: { action: string }) => e.action)).toEqual(expect.arrayContaining(['addUser', 'updatePassword']));
    for (const secret of ['Secret9876', 'Other5432', 'password', tokens.oceanic]) expect(text).not.toContain(secret);
    const [stored] = await s.db.query<{ text: string }>("SELECT string_agg(before::text || after::text, ' ') AS text FROM audit_log");
    expect(stored!.text).not.toMatch(/Secret9876|Other5432|password_hash|\$2[aby]\$|scrypt/);
  });

  it('records nothing for a refused change', async () => {
    const before = (await log('admin')).data.total;
    const refused = await s.call({ method: 'POST', url: dm('deviceGroup/add'), token: tokens.oceanic, payload: { name: '' } });
    expect(refused.code).toBe(ErrorCode.Validation);
    expect((await log('admin')).data.total).toBe(before);
  });

  it('level 1 reads every entry, level 2 its enterprise (its sub-users included), level 3 nothing', async () => {
    await s.call({ method: 'POST', url: dm('deviceGroup/add'), token: tokens.polaris, payload: { name: 'Polar group' } });
    const self = await s.call({ url: `${s.base}/users/getSelf`, token: tokens.oceanops });
    expect(
      (
        await s.call({
          method: 'POST',
          url: `${s.base}/users/updateUser`,
          token: tokens.oceanops,
          payload: { id: self.data.id, signature: 'on watch' },
        })
      ).code,
    ).toBe(ErrorCode.Ok);
    const all = (await log('admin')).data.list.map((e: { userName: string }) => e.userName);
    expect(all).toEqual(expect.arrayContaining(['oceanic', 'polaris', 'oceanops']));
    const oceanic = (await log('oceanic')).data.list.map((e: { userName: string }) => e.userName);
    expect(new Set(oceanic)).toEqual(new Set(['oceanic', 'oceanops']));
    const polaris = (await log('polaris')).data.list.map((e: { userName: string }) => e.userName);
    expect(new Set(polaris)).toEqual(new Set(['polaris']));
    expect((await log('oceanops')).code).toBe(ErrorCode.Forbidden);
  });

  it('filters by user, entity and time', async () => {
    const byUser = (await log('admin', '&userName=polar')).data.list;
    expect(byUser.length).toBeGreaterThan(0);
    expect(byUser.every((e: { userName: string }) => e.userName === 'polaris')).toBe(true);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await log('admin', `&from=${encodeURIComponent(future)}`)).data.total).toBe(0);
    expect(
      (await log('admin', `&to=${encodeURIComponent(future)}&entity=user`)).data.list.every((e: { entity: string }) => e.entity === 'user'),
    ).toBe(true);
    // An entity named as the list shows it, in either language, finds what its recorded name finds.
    const ids = async (entity: string) =>
      (await log('admin', `&entity=${encodeURIComponent(entity)}`)).data.list.map((e: { id: number }) => e.id);
    const groups = await ids('deviceGroup');
    expect(groups.length).toBeGreaterThan(0);
    expect(await ids('设备分组')).toEqual(groups);
    expect(await ids('device group')).toEqual(groups);
    expect(await ids('Device')).not.toEqual(groups);
    // Days as the date pickers send them: today from its start to its end holds today's entries, yesterday none.
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect((await log('admin', `&from=${today}&to=${today}`)).data.total).toBe((await log('admin')).data.total);
    expect((await log('admin', `&to=${yesterday}`)).data.total).toBe(0);
    expect((await log('admin', '&from=2026-02-30')).code).toBe(ErrorCode.Validation);
  });

  it('exports what changed under the field names, times in the reader zone, no internal columns', async () => {
    const added = await s.call({
      method: 'POST',
      url: `${s.base}/supportModule/contactPoint/add`,
      token: tokens.oceanic,
      payload: { name: 'Night desk', channel: 'email', target: 'night@example.com', language: 'en', timeZone: 'UTC', enabled: true },
    });
    expect(added.code).toBe(ErrorCode.Ok);
    const id = added.data.id;
    await s.call({
      method: 'POST',
      url: `${s.base}/supportModule/contactPoint/update`,
      token: tokens.oceanic,
      payload: { id, name: 'Night duty', channel: 'email', target: 'night@example.com', language: 'en', timeZone: 'UTC', enabled: false },
    });
    await s.db.query(`DELETE FROM export_throttle`);
    const res = await s.app.inject({
      url: `${s.base}/supportModule/auditLog/export?token=${tokens.oceanic}&lang=en&format=csv&tz=8&entity=contactPoint&entityId=${id}`,
    });
    const [header, ...rows] = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(header).toBe('Time (UTC+8),User,From address,Entity,Entity id,Action,Changes');
    const body = rows.join('\n');
    expect(body).toContain('Name: Night desk → Night duty');
    expect(body).toContain('Enabled: Yes → No');
    expect(body).not.toMatch(/before|after|updated_at|updatedAt|search_text/);
    // Entity and action under their console names, not the route's words (contactPoint, update).
    expect(rows.map((r) => r.split(',').slice(3, 6).join('|'))).toEqual(
      expect.arrayContaining([`Contact point|${id}|Added`, `Contact point|${id}|Changed`]),
    );
    await s.db.query(`DELETE FROM export_throttle`);
    const zh = await s.app.inject({
      url: `${s.base}/supportModule/auditLog/export?token=${tokens.oceanic}&lang=zh&format=csv&tz=8&entity=contactPoint&entityId=${id}`,
    });
    expect(zh.body).toContain(`,通知渠道,${id},修改,`);
    expect(zh.body).toContain(`,通知渠道,${id},新增,`);
    await s.db.query(`DELETE FROM export_throttle`);
  });

  it("exports the filtered log as xlsx in the caller's language, once per 10 s (-101)", async () => {
    const res = await s.app.inject({ url: `${s.base}/supportModule/auditLog/export?token=${tokens.polaris}&lang=en` });
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="audit-log-\d+\.xlsx"/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows = book.worksheets[0]!.getSheetValues().filter(Boolean) as unknown[][];
    expect(rows[0]!.slice(1, 4)).toEqual(['Time (UTC)', 'User', 'From address']);
    expect(rows.slice(1).every((r) => r[2] === 'polaris')).toBe(true);
    const again = await s.call({ url: `${s.base}/supportModule/auditLog/export`, token: tokens.polaris, lang: 'en' });
    expect(again.code).toBe(ErrorCode.ExportTooFrequent);
  });
});
