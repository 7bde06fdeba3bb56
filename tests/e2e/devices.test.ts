import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { translateDomain } from '../../src/domain/messages';
import { skipBrowserTests, logIn, openPage, screenshot, startE2e, stopE2e, type E2eServer, type Lang } from './browser';

/** The device pages in headless Chromium against the real server and its demo data (docs/console.md, "Devices"). */
describe.skipIf(skipBrowserTests)('device pages in headless Chromium', () => {
  let server: E2eServer;
  let browser: Browser;
  beforeAll(async () => {
    ({ server, browser } = await startE2e());
  });
  afterAll(() => stopE2e(server, browser));

  const open = (lang: Lang, width = 1440, height = 900) => openPage(browser, server, { lang, width, height, acceptDownloads: true });
  const login = (page: Page, name: string, password: string) => logIn(page, server, name, password);

  const t = (lang: Lang, key: string) => translateDomain(lang, key);
  const rawKeys = /\b(ra|console|devices|validation|error|deviceField)\.[a-zA-Z]+(\.[a-zA-Z]+)?\b/;

  async function deviceCount(where: string, value: string): Promise<number> {
    const rows = await server.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM devices WHERE ${where} = $1`, [value]);
    return rows[0]!.n;
  }

  it('validates the device form as the user types (bad deviceNum and MAC) in zh and en, and shows a duplicate under its field', async () => {
    for (const lang of ['zh', 'en'] as const) {
      const { context, page } = await open(lang);
      await login(page, 'oceanic', 'oceanic123');
      await page.goto(`${server.url}/system/deviceManagement/create`);
      await page.getByTestId('device-deviceNum').fill('12ab');
      await page.getByTestId('device-mac').fill('00:11:22');
      await page.getByText(t(lang, 'validation.deviceNum')).waitFor({ timeout: 15_000 });
      await page.getByText(t(lang, 'validation.mac')).waitFor();
      await page.getByTestId('device-deviceSn').fill('SN WITH SPACE');
      await page.getByText(t(lang, 'validation.snNoSpace')).waitFor();
      // Saving the empty form names every required field ("必填项" / "required").
      await page.getByRole('button', { name: lang === 'zh' ? '保存' : 'Save' }).click();
      await page.getByText(t(lang, 'validation.required')).first().waitFor();
      expect(await page.getByText(t(lang, 'validation.required'), { exact: true }).count()).toBeGreaterThanOrEqual(8);
      await screenshot(page, `device-form-errors-${lang}-1440`);
      expect(await page.locator('body').innerText()).not.toMatch(rawKeys);
      await context.close();
    }

    // A well-formed device whose number is taken: the server's duplicate lands under deviceNum.
    const { context, page } = await open('en');
    await login(page, 'oceanic', 'oceanic123');
    await page.goto(`${server.url}/system/deviceManagement/create`);
    const fill = async (field: string, value: string) => page.getByTestId(`device-${field}`).fill(value);
    await fill('name', 'E2E Duplicate');
    await fill('deviceNum', 'A1000001');
    await fill('deviceSn', 'E2E-DUP-SN-1');
    await fill('deviceType', 'VSAT terminal');
    await fill('deviceModel', 'VT-2000');
    await fill('manufactureInfo', 'Test yard');
    await fill('aduVersion', 'V1.0.0');
    await fill('bduVersion', 'V1.0.0');
    await page.locator('#manufactureDate').fill('2024-05-01');
    await page.locator('#deviceKind').click();
    await page.getByRole('option', { name: 'VSAT' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('.MuiFormHelperText-root', { hasText: t('en', 'error.duplicateDeviceNum') }).waitFor({ timeout: 15_000 });
    expect(await deviceCount('device_sn', 'E2E-DUP-SN-1')).toBe(0);
    // A fresh number saves and returns to the list.
    await fill('deviceNum', 'E2E00001');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((u) => u.pathname === '/system/deviceManagement', { timeout: 15_000 });
    expect(await deviceCount('device_sn', 'E2E-DUP-SN-1')).toBe(1);
    await context.close();
  });

  async function workbookWithTwoBadRows(): Promise<Buffer> {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('devices');
    sheet.addRow([
      'name',
      'deviceNum',
      'mac',
      'deviceSn',
      'ownerSubId',
      'manufactureDate',
      'deviceType',
      'aduVersion',
      'bduVersion',
      'manufactureInfo',
      'deviceModel',
      'deviceKind',
    ]);
    sheet.addRow([
      'Import Good',
      'E2E1A001',
      '00.AA.BB.CC.DD.01',
      'E2E-IMP-1',
      '0',
      '2024-01-02',
      '4G router',
      'V1.0.0',
      'V1.0.0',
      'Yard',
      'LTE-M4',
      '4G',
    ]);
    sheet.addRow([
      'Import Bad Number',
      'XYZ',
      '00.AA.BB.CC.DD.02',
      'E2E-IMP-2',
      '0',
      '2024-01-02',
      '4G router',
      'V1.0.0',
      'V1.0.0',
      'Yard',
      'LTE-M4',
      '4G',
    ]);
    sheet.addRow([
      'Import Bad MAC',
      'E2E1A003',
      '00-AA-BB',
      'E2E-IMP-3',
      '0',
      '2024-01-02',
      '4G router',
      'V1.0.0',
      'V1.0.0',
      'Yard',
      'LTE-M4',
      '4G',
    ]);
    return Buffer.from(await workbook.xlsx.writeBuffer());
  }

  it('pins and unpins the ticked devices from the bulk-actions bar (Special Focus)', async () => {
    const { context, page } = await open('en');
    await logIn(page, server, 'oceanic', 'oceanic123', '/system/deviceManagement');
    await page.locator('.RaDataTable-table tbody tr').first().waitFor({ timeout: 30_000 });
    const pins = async () => (await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_pins'))[0]!.n;
    const before = await pins();
    await page.locator('.RaDataTable-table tbody tr input[type=checkbox]').nth(5).check();
    await page.getByTestId('bulk-pin').click();
    await expect.poll(pins, { timeout: 10_000 }).toBe(before + 1);
    // The pin unticks the rows and the list is fetched again (pinned devices may sort first):
    // tick the pinned device's own row, wherever it now is.
    const [pinned] = await server.db.query<{ device_num: string }>(
      'SELECT d.device_num FROM device_pins p JOIN devices d ON d.id = p.device_id ORDER BY p.pinned_at DESC LIMIT 1',
    );
    const num = pinned!.device_num.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const row = page
      .locator('.RaDataTable-table tbody tr')
      .filter({ has: page.locator('td', { hasText: new RegExp(`^\\s*${num}\\s*$`) }) });
    await expect.poll(() => row.locator('input[type=checkbox]').isChecked(), { timeout: 10_000 }).toBe(false);
    await row.locator('input[type=checkbox]').check();
    await page.getByTestId('bulk-unpin').click();
    await expect.poll(pins, { timeout: 10_000 }).toBe(before);
    await context.close();
  });

  it('imports a file with two bad rows: both named with row and column, nothing written', async () => {
    const file = await workbookWithTwoBadRows();
    for (const lang of ['zh', 'en'] as const) {
      const { context, page } = await open(lang);
      await login(page, 'oceanic', 'oceanic123');
      await page.goto(`${server.url}/system/deviceManagement`);
      await page.getByTestId('import-open').click();
      await page.getByTestId('import-file').setInputFiles({
        name: 'devices.xlsx',
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer: file,
      });
      await page.getByTestId('import-start').click();
      await page.getByTestId('import-report').waitFor({ timeout: 30_000 });
      const rows = await page.getByTestId('import-row-error').allInnerTexts();
      expect(rows).toHaveLength(2);
      const cells = rows.map((r) => r.split('\t').map((c) => c.trim()));
      expect(cells[0]).toEqual(['3', t(lang, 'deviceField.deviceNum'), t(lang, 'validation.deviceNum')]);
      expect(cells[1]).toEqual(['4', t(lang, 'deviceField.mac'), t(lang, 'validation.mac')]);
      await screenshot(page, `device-import-report-${lang}-1440`);
      expect(await deviceCount('device_sn', 'E2E-IMP-1')).toBe(0);
      await context.close();
    }
  });

  it('refuses to delete a group that holds devices, creates and deletes an empty one, refuses a reserved name', async () => {
    for (const lang of ['zh', 'en'] as const) {
      const { context, page } = await open(lang);
      await login(page, 'oceanic', 'oceanic123');
      await page.goto(`${server.url}/device/deviceData`);
      await page.getByTestId('device-groups').waitFor({ timeout: 30_000 });
      await page.getByText(t(lang, 'deviceGroup.specialFocus')).first().waitFor();
      await page.getByText(t(lang, 'deviceGroup.ungrouped')).first().waitFor();
      const fleet = page.locator('li', { hasText: 'Container Fleet' });
      await fleet.locator('[data-testid^="group-delete-"]').click();
      await page.getByTestId('group-delete-confirm').click();
      await page.getByText(t(lang, 'error.groupNotEmpty')).waitFor({ timeout: 15_000 });
      expect(await page.locator('li', { hasText: 'Container Fleet' }).count()).toBe(1);

      await page.getByTestId('group-add').click();
      await page.getByTestId('group-name').fill(lang === 'zh' ? '我的特别关注' : 'My Special Focus list');
      await page.getByText(t(lang, 'validation.groupNameReserved')).waitFor();
      const name = `E2E group ${lang}`;
      await page.getByTestId('group-name').fill(name);
      await page.getByTestId('group-save').click();
      const created = page.locator('li', { hasText: name });
      await created.waitFor({ timeout: 15_000 });
      await created.getByRole('button').first().click();
      await page.getByTestId('group-selected').filter({ hasText: name }).waitFor();
      await page.locator('li', { hasText: 'Container Fleet' }).getByRole('button').first().click();
      await page.locator('.RaDataTable-table tbody tr').first().waitFor({ timeout: 15_000 });
      await screenshot(page, `device-groups-${lang}-1440`);
      await created.locator('[data-testid^="group-delete-"]').click();
      await page.getByTestId('group-delete-confirm').click();
      await page.locator('li', { hasText: name }).waitFor({ state: 'detached', timeout: 15_000 });
      expect(await page.locator('body').innerText()).not.toMatch(rawKeys);
      await context.close();
    }
  });

  it('a sub-user sees only the vessels its enterprise granted it in the console', async () => {
    const granted = ['Pacific Star', 'Jade Fortune'];
    {
      const { context, page } = await open('en');
      await login(page, 'oceanic', 'oceanic123');
      await page.goto(`${server.url}/system/user`);
      const row = page.locator('tr', { hasText: 'oceanbridge' });
      await row.getByRole('button', { name: 'Vessels' }).click();
      await page.getByTestId('vessels-count').waitFor({ timeout: 15_000 });
      await page.getByTestId('vessels-clear').click();
      for (const name of granted) await page.getByRole('checkbox', { name }).check();
      await screenshot(page, 'device-subuser-grants-en-1440');
      await page.getByTestId('vessels-save').click();
      await page.getByTestId('vessels-dialog').waitFor({ state: 'detached', timeout: 15_000 });
      await context.close();
    }
    const { context, page } = await open('en');
    await login(page, 'oceanbridge', 'bridge123');
    await page.goto(`${server.url}/system/deviceManagement`);
    await page.locator('.RaDataTable-table tbody tr').first().waitFor({ timeout: 30_000 });
    const names = await page.locator('.RaDataTable-table tbody tr td:nth-child(3)').allInnerTexts();
    expect(names.map((n) => n.trim()).sort()).toEqual([...granted].sort());
    expect(await page.getByTestId('import-open').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Create' }).count()).toBe(0);
    await context.close();
  });

  it('activates a device (secret shown once), shows who and when, and deactivates it after confirming', async () => {
    for (const lang of ['zh', 'en'] as const) {
      const { context, page } = await open(lang);
      await login(page, 'admin', 'admin123');
      await page.goto(`${server.url}/activation/ActivateDevice`);
      await page.getByTestId('activation-key').fill('NOSUCHDEV');
      await page.getByTestId('activation-find').click();
      await page.getByTestId('activation-not-found').waitFor({ timeout: 15_000 });
      await page.getByTestId('activation-key').fill('A1000003');
      await page.getByTestId('activation-find').click();
      await page.getByTestId('activate').waitFor({ timeout: 15_000 });
      await page.getByTestId('activate').click();
      await page.getByTestId('secret-dialog').waitFor({ timeout: 15_000 });
      const secret = await page.getByTestId('device-secret').inputValue();
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      await screenshot(page, `device-activation-secret-${lang}-1440`);
      await page.getByTestId('secret-done').click();
      await page.getByTestId('activated-by').filter({ hasText: 'admin' }).waitFor({ timeout: 15_000 });
      await screenshot(page, `device-activation-${lang}-1440`);
      await page.getByTestId('deactivate').click();
      await page.getByTestId('deactivate-confirm').click();
      await page.getByTestId('activate').waitFor({ timeout: 15_000 });
      const [row] = await server.db.query<{ activated: boolean }>("SELECT activated FROM devices WHERE device_num = 'A1000003'");
      expect(row!.activated).toBe(false);
      expect(await page.locator('body').innerText()).not.toMatch(rawKeys);
      await context.close();
    }
  });

  it('lists, creates and deletes device authorizations', async () => {
    for (const lang of ['zh', 'en'] as const) {
      const { context, page } = await open(lang);
      await login(page, 'admin', 'admin123');
      await page.goto(`${server.url}/system/deviceAuth`);
      await page.locator('.RaDataTable-table tbody tr').first().waitFor({ timeout: 30_000 });
      expect(await page.locator('.RaDataTable-table tbody tr').count()).toBeGreaterThanOrEqual(7);
      await screenshot(page, `device-auth-${lang}-1440`);
      expect(await page.locator('body').innerText()).not.toMatch(rawKeys);
      await context.close();
    }
    const { context, page } = await open('en');
    await login(page, 'admin', 'admin123');
    await page.goto(`${server.url}/system/deviceAuth/create`);
    await page.locator('#enterpriseId').click();
    await page.getByRole('option', { name: 'polaris' }).click();
    await page.locator('#feature').click();
    await page.getByRole('option', { name: t('en', 'feature.iotData') }).click();
    await page.locator('#deviceCount').fill('5');
    await page.locator('#deadline').fill('2030-12-31');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((u) => u.pathname === '/system/deviceAuth', { timeout: 15_000 });
    const row = page.locator('tr', { hasText: '2030-12-31' });
    await row.waitFor({ timeout: 15_000 });
    expect(await row.innerText()).toContain(t('en', 'feature.iotData'));
    const stored = async () =>
      (
        await server.db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM device_auth_grants WHERE feature = 'iotData' AND deadline = '2030-12-31'",
        )
      )[0]!.n;
    expect(await stored()).toBe(1);
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.locator('tr', { hasText: '2030-12-31' }).waitFor({ state: 'detached', timeout: 15_000 });
    expect(await stored()).toBe(0);
    await context.close();
  });

  it('exports CSV, refuses a second export within 10 s with the -101 message, and screenshots the list', async () => {
    for (const lang of ['zh', 'en'] as const) {
      for (const width of [1440, 390]) {
        if (lang === 'en' && width === 390) continue;
        const { context, page } = await open(lang, width, width > 1000 ? 900 : 844);
        await login(page, 'admin', 'admin123');
        await page.goto(`${server.url}/system/deviceManagement`);
        await page.locator('.RaDataTable-table tbody tr').first().waitFor({ timeout: 30_000 });
        await page.locator('img[data-testid^="device-icon-"]').first().waitFor();
        await screenshot(page, `device-list-${lang}-${width}`);
        expect(await page.locator('body').innerText()).not.toMatch(rawKeys);
        await context.close();
      }
    }
    const { context, page } = await open('zh');
    await login(page, 'oceanic', 'oceanic123');
    await page.goto(`${server.url}/system/deviceManagement`);
    await page.locator('.RaDataTable-table tbody tr').first().waitFor({ timeout: 30_000 });
    // Filter to the unactivated devices: the table and the exported file follow the filter.
    await page.getByRole('combobox', { name: /激活状态/ }).click();
    await page.getByRole('option', { name: '未激活', exact: true }).click();
    await page.waitForURL((u) => u.search.includes('activated'), { timeout: 15_000 });
    const [owner] = await server.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM devices d JOIN users u ON u.id = d.owner_id WHERE u.name = 'oceanic' AND NOT d.activated",
    );
    await page.waitForFunction((n) => document.querySelectorAll('.RaDataTable-table tbody tr').length === n, owner!.n, { timeout: 15_000 });
    expect(await page.locator('.RaDataTable-table tbody tr', { hasText: '已激活' }).count()).toBe(0);
    const download = page.waitForEvent('download');
    await page.getByTestId('export-csv').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^devices-\d+\.csv$/);
    const csv = readFileSync((await file.path())!, 'utf8')
      .trim()
      .split(/\r?\n/);
    expect(csv).toHaveLength(owner!.n + 1);
    await page.getByTestId('export-xlsx').click();
    await page.getByText(t('zh', 'error.exportTooFrequent')).waitFor({ timeout: 15_000 });
    await context.close();
  });
});
