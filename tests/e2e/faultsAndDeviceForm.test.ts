import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { translateDomain } from '../../src/domain/messages';
import { consoleEn } from '../../src/i18n/consoleEn';
import { consoleZh } from '../../src/i18n/consoleZh';
import { skipBrowserTests, logIn, openPage, screenshot, startE2e, stopE2e, type E2eServer, type Lang } from './browser';

/**
 * A first day with the console: a fault cleared on the troubleshooting page acknowledges the
 * vessel's alarm, its report step fits the user's level, and the device form marks its required
 * fields, names every duplicate at once under its field, refuses a manufacture date in the future
 * and warns of another vessel's MMSI, with no raw message in a toast (zh and en).
 */
describe.skipIf(skipBrowserTests)('troubleshooting and the device form in headless Chromium', () => {
  let server: E2eServer;
  let browser: Browser;
  /** One oceanic vessel with an unacknowledged E05 alarm per language. */
  const vessels: Record<Lang, number> = { zh: 0, en: 0 };
  let taken: { name: string; device_num: string; device_sn: string; mac: string };
  const MMSI = '412987654';
  beforeAll(async () => {
    ({ server, browser } = await startE2e());
    const rows = await server.db.query<{ id: number }>(
      `SELECT d.id FROM devices d JOIN users u ON u.id = d.owner_id WHERE u.name = 'oceanic' ORDER BY d.id LIMIT 2`,
    );
    vessels.zh = rows[0]!.id;
    vessels.en = rows[1]!.id;
    for (const id of Object.values(vessels))
      await server.db.query(
        `INSERT INTO alarms (device_id, code, severity, raised_at, last_seen_at) VALUES ($1, 'E05', 'major', now() - interval '1 hour', now())`,
        [id],
      );
    [taken] = await server.db.query<typeof taken>(`UPDATE devices SET mmsi = $2 WHERE id = $1 RETURNING name, device_num, device_sn, mac`, [
      vessels.zh,
      MMSI,
    ]);
  });
  afterAll(() => stopE2e(server, browser));

  const open = (lang: Lang) => openPage(browser, server, { lang, width: 1440, height: 900 });
  const t = (lang: Lang, key: string) => translateDomain(lang, key);
  const locked = { zh: consoleZh.console.page.locked, en: consoleEn.console.page.locked };
  /** No toast shows a raw "[field: message]" or a message key. */
  const rawToast = /\[\w+: |\b(ra|console|devices|validation|error|support)\.[a-zA-Z]+/;
  const toasts = (page: Page) => page.locator('.MuiSnackbar-root').allInnerTexts();

  it.each(['zh', 'en'] as const)(
    'a level-2 user clears a fault: the record acknowledges the alarm, the report step sends it to its service provider (%s)',
    async (lang) => {
      const { context, page } = await open(lang);
      await logIn(page, server, 'oceanic', 'oceanic123', `/service/faultClearing?deviceId=${vessels[lang]}&code=E05`);
      const step = page.getByTestId('fc-report-step');
      await step.waitFor({ timeout: 30_000 });
      await page.getByTestId('fc-report-locked').waitFor();
      expect(await step.textContent()).toContain(locked[lang]);
      expect(await page.getByTestId('fc-start-report').count()).toBe(0);
      await page.getByTestId('fc-action').fill(lang === 'zh' ? '擦干并拧紧 LNB 接头' : 'Dried and tightened the LNB connector');
      await page.getByTestId('fc-cleared').check();
      await page.getByTestId('fc-save').click();
      await page.getByTestId('fc-acked-E05').waitFor({ timeout: 15_000 });
      const saved = lang === 'zh' ? '确认了该船舶的 E05 告警' : "the vessel's E05 alarm acknowledged";
      await expect.poll(async () => (await toasts(page)).join(' '), { timeout: 10_000 }).toContain(saved);
      const [alarm] = await server.db.query<{ name: string | null }>(
        `SELECT u.name FROM alarms a LEFT JOIN users u ON u.id = a.acked_by WHERE a.device_id = $1 AND a.code = 'E05'`,
        [vessels[lang]],
      );
      expect(alarm!.name).toBe('oceanic');
      await screenshot(page, `firstday-faultclearing-${lang}-1440`);
      await context.close();
    },
  );

  it('an admin gets the after-sales report at the report step', async () => {
    const { context, page } = await open('en');
    await logIn(page, server, 'admin', 'admin123', `/service/faultClearing?deviceId=${vessels.en}&code=E05`);
    const step = page.getByTestId('fc-report-step');
    await step.getByTestId('fc-start-report').waitFor({ timeout: 30_000 });
    expect(await step.textContent()).toContain('start an after-sales report from this fault');
    expect(await page.getByTestId('fc-report-locked').count()).toBe(0);
    await context.close();
  });

  it.each(['zh', 'en'] as const)(
    'the device form marks required fields, refuses a future date, warns of a taken MMSI and names every duplicate at once (%s)',
    async (lang) => {
      const { context, page } = await open(lang);
      await logIn(page, server, 'oceanic', 'oceanic123', '/system/deviceManagement/create');
      await page.getByTestId('device-name').waitFor({ timeout: 30_000 });
      // Name, SN, owner, sub-user, date, type, both versions, info, model, kind.
      const marked = async () => (await page.locator('form label').allInnerTexts()).filter((text) => text.trim().endsWith('*')).length;
      await expect.poll(marked, { timeout: 10_000 }).toBe(11);
      const fill = async (field: string, value: string) => page.getByTestId(`device-${field}`).fill(value);
      await fill('name', `First day ${lang}`);
      await fill('deviceNum', taken.device_num);
      await fill('deviceSn', taken.device_sn);
      await fill('mac', taken.mac);
      await fill('deviceType', 'VSAT terminal');
      await fill('deviceModel', 'VT-2000');
      await fill('manufactureInfo', 'Test yard');
      await fill('aduVersion', 'V1.0.0');
      await fill('bduVersion', 'V1.0.0');
      await page.locator('#deviceKind').click();
      await page.getByRole('option', { name: 'VSAT' }).click();
      await page.locator('#manufactureDate').fill('2099-01-01');
      await page.getByText(t(lang, 'validation.notFuture')).waitFor({ timeout: 10_000 });
      await page.locator('#manufactureDate').fill('2024-05-01');
      await fill('mmsi', MMSI);
      const warning = page.getByTestId('device-mmsi-warning');
      await warning.waitFor({ timeout: 10_000 });
      expect(await warning.textContent()).toContain(taken.name);
      await page.getByRole('button', { name: lang === 'zh' ? '保存' : 'Save' }).click();
      for (const key of ['error.duplicateDeviceNum', 'error.duplicateDeviceSn', 'error.duplicateMac'])
        await page.locator('.MuiFormHelperText-root', { hasText: t(lang, key) }).waitFor({ timeout: 15_000 });
      const shown = (await toasts(page)).join(' ');
      expect(shown).not.toMatch(rawToast);
      expect(shown).not.toContain(t(lang, 'error.duplicateDeviceSn'));
      await screenshot(page, `firstday-device-form-${lang}-1440`);
      await context.close();
    },
  );
});
