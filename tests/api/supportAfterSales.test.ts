import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { engines, startWithLogins, type TestServer } from './helpers';
import { ErrorCode } from '../../src/domain/errorCodes';
import { AFTER_SALES_FIELDS } from '../../src/domain/afterSales';

const sp = (s: TestServer, path: string) => `${s.base}/supportModule/${path}`;

export const validReport = (overrides: Record<string, unknown> = {}) => ({
  DeviceModel: 'VT-1',
  DeviceSn: 'SN0001',
  FeedbackApartment: 'Fleet operations',
  FeedbackPeople: 'Li Wei',
  Customer: 'Oceanic Shipping',
  DeviceNum: '0A1B2C3D',
  DispatchOfData: '2026-03-10',
  CustomerSuggestion: 'Faster spare parts',
  Classification: 'hardware',
  Description: 'Antenna does not lock after restart',
  Department: 'After-sales',
  Reamrk: '',
  ...overrides,
});

describe.each(engines)('supportModule after-sales reports on %s', (engine) => {
  let s: TestServer;
  let ids: Record<string, number>;
  let tokens: Record<string, string>;
  beforeAll(async () => {
    ({ s, ids, tokens } = await startWithLogins(engine, ['admin', 'oceanic', 'oceanops']));
  });
  afterAll(() => s.close());
  const post = (who: string, path: string, payload: unknown, lang?: 'zh' | 'en') =>
    s.call({ method: 'POST', url: sp(s, path), token: tokens[who], payload: payload as object, lang });
  const get = (who: string, path: string, lang?: 'zh' | 'en') => s.call({ url: sp(s, path), token: tokens[who], lang });

  it('requires every field but CustomerSuggestion and Reamrk, with "必填项" / "required", writing nothing', async () => {
    const before = (await get('admin', 'afterSales/getAll')).data.total;
    const empty = await post('admin', 'afterSales/add', {}, 'zh');
    expect(empty.code).toBe(ErrorCode.Validation);
    const required = AFTER_SALES_FIELDS.filter((f) => f !== 'CustomerSuggestion' && f !== 'Reamrk');
    expect(empty.data.map((e: { field: string }) => e.field).sort()).toEqual([...required].sort());
    expect(new Set(empty.data.map((e: { message: string }) => e.message))).toEqual(new Set(['必填项']));
    const en = await post('admin', 'afterSales/add', validReport({ Description: '  ' }), 'en');
    expect(en.data).toEqual([{ field: 'Description', message: 'required' }]);
    expect((await get('admin', 'afterSales/getAll')).data.total).toBe(before);
    const ok = await post('admin', 'afterSales/add', validReport({ CustomerSuggestion: undefined, Reamrk: undefined }));
    expect(ok.code).toBe(0);
    expect(ok.data).toMatchObject({ DeviceSn: 'SN0001', DispatchOfData: '2026-03-10', CustomerSuggestion: null, reporterName: 'admin' });
  });

  it('checks the date and the classification', async () => {
    const res = await post('admin', 'afterSales/add', validReport({ DispatchOfData: '2026-02-30', Classification: 'nonsense' }), 'en');
    expect(res.data).toEqual([
      { field: 'DispatchOfData', message: 'The date must look like YYYY-MM-DD' },
      { field: 'Classification', message: 'Choose a valid classification' },
    ]);
  });

  it('lists with filters by date range, classification, department and device; sorts and pages; updates and deletes', async () => {
    const tag = `T${Date.now() % 100000}`;
    const a = (
      await post(
        'admin',
        'afterSales/add',
        validReport({ DeviceSn: `${tag}A`, DispatchOfData: '2025-01-05', Classification: 'software', Department: `R&D ${tag}` }),
      )
    ).data;
    const b = (
      await post(
        'admin',
        'afterSales/add',
        validReport({ DeviceSn: `${tag}B`, DispatchOfData: '2025-01-20', Classification: 'hardware', Department: `After-sales ${tag}` }),
      )
    ).data;
    const c = (
      await post(
        'admin',
        'afterSales/add',
        validReport({ DeviceSn: `${tag}C`, DispatchOfData: '2025-02-01', Classification: 'hardware', Department: `After-sales ${tag}` }),
      )
    ).data;
    const ids_ = (r: { data: { list: { id: number }[] } }) => r.data.list.map((x) => x.id);
    expect(ids_(await get('admin', `afterSales/getAll?device=${tag}&sort=DispatchOfData&order=asc`))).toEqual([a.id, b.id, c.id]);
    expect(ids_(await get('admin', `afterSales/getAll?device=${tag}&dateFrom=2025-01-10&dateTo=2025-01-31`))).toEqual([b.id]);
    expect(ids_(await get('admin', `afterSales/getAll?device=${tag}&classification=hardware&sort=id&order=asc`))).toEqual([b.id, c.id]);
    expect(ids_(await get('admin', `afterSales/getAll?department=R%26D%20${tag}`))).toEqual([a.id]);
    const page2 = await get('admin', `afterSales/getAll?device=${tag}&sort=DispatchOfData&order=asc&pageIndex=2&pageSize=2`);
    expect(page2.data).toMatchObject({ total: 3, list: [{ id: c.id }] });
    const upd = await post('admin', 'afterSales/update', { ...validReport({ DeviceSn: `${tag}A` }), id: a.id, Reamrk: 'checked' });
    expect(upd.data).toMatchObject({ id: a.id, Reamrk: 'checked', Classification: 'hardware' });
    expect((await post('admin', 'afterSales/update', { ...validReport(), id: 999999 })).code).toBe(ErrorCode.NotFound);
    expect((await s.call({ method: 'DELETE', url: sp(s, `afterSales/deleteById?id=${a.id}`), token: tokens.admin })).code).toBe(0);
    expect((await get('admin', `afterSales/getById?id=${a.id}`)).code).toBe(ErrorCode.NotFound);
  });

  it('refuses levels 2 and 3 on every route', async () => {
    const report = (await post('admin', 'afterSales/add', validReport())).data;
    for (const who of ['oceanic', 'oceanops']) {
      expect((await get(who, 'afterSales/getAll')).code).toBe(ErrorCode.Forbidden);
      expect((await get(who, `afterSales/getById?id=${report.id}`)).code).toBe(ErrorCode.Forbidden);
      expect((await post(who, 'afterSales/add', validReport())).code).toBe(ErrorCode.Forbidden);
      expect((await post(who, 'afterSales/update', { ...validReport(), id: report.id })).code).toBe(ErrorCode.Forbidden);
      expect((await s.call({ method: 'DELETE', url: sp(s, `afterSales/deleteById?id=${report.id}`), token: tokens[who] })).code).toBe(
        ErrorCode.Forbidden,
      );
      expect((await get(who, 'afterSales/export')).code).toBe(ErrorCode.Forbidden);
    }
    expect((await get('admin', `afterSales/getById?id=${report.id}`)).data.id).toBe(report.id);
  });

  it('exports the filtered list to Excel with headers in the request language, and answers -101 when exported again within 10 s', async () => {
    const tag = `X${Date.now() % 100000}`;
    await post('admin', 'afterSales/add', validReport({ DeviceSn: `${tag}1`, Classification: 'signal' }));
    const token = tokens.admin!;
    const res = await s.app.inject({ url: `${sp(s, 'afterSales/export')}?token=${token}&lang=en&device=${tag}` });
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).values).toContain('Responsible department');
    expect(sheet.rowCount).toBe(2);
    expect(sheet.getRow(2).values).toContain('Signal issue');
    const again = await s.call({ url: `${sp(s, 'afterSales/export')}?device=${tag}`, token, lang: 'en' });
    expect(again).toMatchObject({ code: ErrorCode.ExportTooFrequent, msg: 'Do not export data frequently. Wait 10 seconds and try again' });
    // The same throttle as the device export: one export per user per 10 s, whatever the list.
    const device = await s.call({ url: `${s.base}/deviceModule/device/export`, token });
    expect(device.code).toBe(ErrorCode.ExportTooFrequent);
    await s.db.query(`UPDATE export_throttle SET last_export_at = now() - interval '11 seconds' WHERE user_id = $1`, [ids.admin]);
    const later = await s.app.inject({ url: `${sp(s, 'afterSales/export')}?token=${token}` });
    expect(later.headers['content-type']).toContain('spreadsheetml');
  });

  it('keeps console settings: everyone reads, only admins write, within the rules', async () => {
    expect((await get('oceanops', 'settings/get')).data).toEqual({ warnRefreshSeconds: 30, defaultSize: 'mini' });
    expect((await post('oceanic', 'settings/update', { warnRefreshSeconds: 10 })).code).toBe(ErrorCode.Forbidden);
    const bad = await post('admin', 'settings/update', { warnRefreshSeconds: 2, defaultSize: 'huge' }, 'en');
    expect(bad.code, JSON.stringify(bad)).toBe(ErrorCode.Validation);
    expect(bad.data.map((e: { field: string }) => e.field)).toEqual(['warnRefreshSeconds', 'defaultSize']);
    expect((await post('admin', 'settings/update', { warnRefreshSeconds: 15 })).data).toEqual({
      warnRefreshSeconds: 15,
      defaultSize: 'mini',
    });
    expect((await post('admin', 'settings/update', { defaultSize: 'medium' })).data).toEqual({
      warnRefreshSeconds: 15,
      defaultSize: 'medium',
    });
    expect((await get('oceanops', 'settings/get')).data).toEqual({ warnRefreshSeconds: 15, defaultSize: 'medium' });
  });
});
