import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { skipBrowserTests, logIn, openPage, screenshot, startE2e, stopE2e, type E2eServer, type Lang } from './browser';

describe.skipIf(skipBrowserTests)('support pages in headless Chromium', () => {
  let server: E2eServer;
  let browser: Browser;
  let vesselId: number;
  beforeAll(async () => {
    ({ server, browser } = await startE2e());
    const [row] = await server.db.query<{ id: number }>(
      `SELECT d.id FROM devices d JOIN users u ON u.id = d.owner_id WHERE u.name = 'oceanic' ORDER BY d.id LIMIT 1`,
    );
    vesselId = row!.id;
    await server.db.query(
      `INSERT INTO alarms (device_id, code, severity, raised_at, last_seen_at) VALUES ($1, 'E05', 'major', now() - interval '2 hours', now())`,
      [vesselId],
    );
    const [group] = await server.db.query<{ id: number }>(
      `INSERT INTO permission_groups (name, description, permissions) VALUES ('Fleet viewers', 'Read-only staff', '{viewuser,viewmachine}') RETURNING id`,
    );
    await server.db.query(`INSERT INTO permission_group_members (user_id, group_id) SELECT id, $1 FROM users WHERE name = 'oceanbridge'`, [
      group!.id,
    ]);
  });
  afterAll(() => stopE2e(server, browser));

  const open = (lang: Lang, width = 1440, height = 900) => openPage(browser, server, { lang, width, height });
  const login = (page: Page, name: string, password: string, to: string) => logIn(page, server, name, password, to);

  const reportCount = async () => (await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM after_sales_reports'))[0]!.n;

  it.each([
    ['zh', '必填项', '分类', '硬件故障'],
    ['en', 'required', 'Classification', 'Hardware fault'],
  ] as const)(
    'refuses an after-sales report with a missing required field and says why (%s)',
    async (lang, message, classification, hardware) => {
      const { context, page } = await open(lang);
      await login(page, 'admin', 'admin123', '/service/afterService/create');
      await page.getByTestId('as-DeviceModel').waitFor({ timeout: 30_000 });
      const before = await reportCount();
      for (const [field, value] of [
        ['DeviceModel', 'VT-1'],
        ['DeviceSn', 'SN-E2E'],
        ['FeedbackApartment', 'Fleet ops'],
        ['FeedbackPeople', 'Li Wei'],
        ['Customer', 'Oceanic'],
        ['DeviceNum', '0A1B2C3D'],
        ['Department', 'After-sales'],
      ] as const) {
        await page.getByTestId(`as-${field}`).fill(value);
      }
      await page.getByRole('combobox', { name: classification }).click();
      await page.getByRole('option', { name: hardware }).click();
      // Description (required) is left empty; CustomerSuggestion and Reamrk are optional.
      await page.getByTestId('as-save').click();
      const description = page.locator('.MuiFormControl-root', { has: page.getByTestId('as-Description') });
      await expect.poll(async () => (await description.textContent()) ?? '', { timeout: 10_000 }).toContain(message);
      const suggestion = page.locator('.MuiFormControl-root', { has: page.getByTestId('as-CustomerSuggestion') });
      expect(await suggestion.textContent()).not.toContain(message);
      await screenshot(page, `aftersales-form-missing-${lang}`);
      expect(await reportCount()).toBe(before);
      expect(new URL(page.url()).pathname).toBe('/service/afterService/create');
      // Filling it in files the report and goes back to the list.
      await page.getByTestId('as-Description').fill('No lock after restart');
      await page.getByTestId('as-save').click();
      await page.waitForURL((u) => u.pathname === '/service/afterService', { timeout: 15_000 });
      expect(await reportCount()).toBe(before + 1);
      await page.getByText('SN-E2E').first().waitFor({ timeout: 10_000 });
      await screenshot(page, `aftersales-list-${lang}`);
      await context.close();
    },
  );

  it('changes the theme from the user menu: the menu colour changes at once and is remembered', async () => {
    const { context, page } = await open('en');
    await login(page, 'oceanops', 'oceanops123', '/dashboard');
    const menu = page.getByTestId('menu-/dashboard');
    await menu.waitFor({ timeout: 30_000 });
    const menuColour = () => menu.evaluate((el) => getComputedStyle(el.closest('nav')!).backgroundColor);
    expect(await menuColour()).toBe('rgb(11, 42, 69)'); // the default palette's menu background #0b2a45
    await page.getByTestId('user-menu').click();
    await page.getByTestId('theme-menu').click();
    await page.getByTestId('palette-5').click();
    await expect.poll(menuColour).toBe('rgb(34, 24, 69)'); // palette 5: #221845
    await screenshot(page, 'theme-dialog-en');
    await page.keyboard.press('Escape');
    await page.reload();
    await menu.waitFor({ timeout: 30_000 });
    expect(await menuColour()).toBe('rgb(34, 24, 69)');
    await context.close();
  });

  it.each([
    ['zh', '联系厂家'],
    ['en', 'contact the manufacturer'],
  ] as const)("fault clearing shows E90's contact-manufacturer text (%s)", async (lang, text) => {
    const { context, page } = await open(lang);
    await login(page, 'oceanic', 'oceanic123', `/service/faultClearing?deviceId=${vesselId}&code=E90`);
    const detail = page.getByTestId('fc-detail');
    await detail.waitFor({ timeout: 30_000 });
    await page.getByTestId('fc-contact').waitFor();
    expect((await detail.textContent())?.toLowerCase()).toContain(text.toLowerCase());
    // Record what was done: it lands in the vessel's history.
    await page.getByTestId('fc-action').fill(lang === 'zh' ? '已联系厂家' : 'Called the manufacturer');
    await page.getByTestId('fc-save').click();
    await page.getByTestId('fc-history').waitFor({ timeout: 10_000 });
    await screenshot(page, `faultclearing-${lang}-1440`);
    await context.close();
  });

  it("starts an after-sales report from a vessel's fault, prefilled", async () => {
    const { context, page } = await open('en');
    await login(page, 'admin', 'admin123', `/service/faultClearing?deviceId=${vesselId}&code=E05`);
    await page.getByTestId('fc-start-report').click();
    await page.waitForURL((u) => u.pathname === '/service/afterService/create', { timeout: 15_000 });
    const [vessel] = await server.db.query<{ device_sn: string; device_model: string }>(
      'SELECT device_sn, device_model FROM devices WHERE id = $1',
      [vesselId],
    );
    await expect.poll(() => page.getByTestId('as-DeviceSn').inputValue()).toBe(vessel!.device_sn);
    expect(await page.getByTestId('as-DeviceModel').inputValue()).toBe(vessel!.device_model);
    expect(await page.getByTestId('as-Description').inputValue()).toBe('Fault E05: LNB detection failed');
    await page.getByText('Started from fault E05').waitFor();
    await screenshot(page, 'aftersales-from-fault-en');
    await context.close();
  });

  it('defines a permission group on the grid and saves it', async () => {
    const { context, page } = await open('en');
    await login(page, 'admin', 'admin123', '/system/permissionConfig');
    await page.getByTestId('perm-new').click();
    await page.getByTestId('perm-name').fill('Machine adders');
    await page.getByTestId('perm-viewmachine').check();
    await page.getByTestId('perm-addmachine').check();
    expect(await page.getByTestId('perm-audituser').count()).toBe(0); // no audit for the user module
    expect(await page.getByTestId('perm-auditppid').count()).toBe(1);
    await page.getByTestId('perm-save').click();
    await expect
      .poll(
        async () =>
          (await server.db.query<{ permissions: string[] }>(`SELECT permissions FROM permission_groups WHERE name = 'Machine adders'`))[0]
            ?.permissions,
      )
      .toEqual(['viewmachine', 'addmachine']);
    await context.close();
  });

  it('takes screenshots of every support page, zh and en, wide and narrow', async () => {
    for (const lang of ['zh', 'en'] as const) {
      for (const width of [1440, 390]) {
        const { context, page } = await open(lang, width, width > 1000 ? 900 : 844);
        // A vessel alone opens its active fault first (E05 raised in beforeAll).
        await login(page, 'admin', 'admin123', `/service/faultClearing?deviceId=${vesselId}`);
        await page.getByTestId('fc-detail').waitFor({ timeout: 30_000 });
        await expect
          .poll(async () => page.getByTestId('fc-meaning').textContent())
          .toBe(lang === 'zh' ? 'LNB检测失败' : 'LNB detection failed');
        await screenshot(page, `faultclearing-e05-${lang}-${width}`);
        await page.goto(`${server.url}/system/permissionConfig`);
        await page.getByTestId('perm-grid').waitFor({ timeout: 30_000 });
        await screenshot(page, `permissions-${lang}-${width}`);
        await page.goto(`${server.url}/personal/preference`);
        await page.getByTestId('palette-1').waitFor({ timeout: 30_000 });
        await screenshot(page, `preference-${lang}-${width}`);
        await page.goto(`${server.url}/service/afterService`);
        // The generic list's export button (console.action.export).
        await page.getByRole('button', { name: lang === 'zh' ? '导出 Excel' : 'Export to Excel' }).waitFor({ timeout: 30_000 });
        await screenshot(page, `aftersales-${lang}-${width}`);
        await context.close();
      }
    }
  });
});
