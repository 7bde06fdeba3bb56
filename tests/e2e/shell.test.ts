import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { skipBrowserTests, logIn, openPage, screenshot, startE2e, stopE2e, type E2eServer, type Lang } from './browser';

describe.skipIf(skipBrowserTests)('console shell in headless Chromium', () => {
  let server: E2eServer;
  let browser: Browser;
  beforeAll(async () => {
    ({ server, browser } = await startE2e());
  });
  afterAll(() => stopE2e(server, browser));

  const open = (width = 1440, height = 900, lang?: Lang) => openPage(browser, server, { lang, width, height });
  const login = (page: Page, name: string, password: string) => logIn(page, server, name, password);

  const menuVisible = async (page: Page, path: string) => (await page.getByTestId(`menu-${path}`).count()) > 0;

  /** Opens every sidebar group so that their pages are in the menu. */
  async function expandMenu(page: Page) {
    await page.getByTestId('menu-/dashboard').waitFor({ timeout: 30_000 });
    for (const group of ['/system', '/device', '/service', '/activation', '/personal']) {
      const item = page.getByTestId(`menu-${group}`);
      if ((await item.count()) > 0) await item.click();
    }
  }

  it('shows each level exactly the menu of the page matrix', async () => {
    const expectations: [string, string, Record<string, boolean>][] = [
      [
        'admin',
        'admin123',
        {
          '/system/user': true,
          '/system/firmware': true,
          '/system/deviceAuth': true,
          '/activation/ActivateDevice': true,
          '/system/icon': false,
          '/system/deviceManagement': true,
        },
      ],
      [
        'oceanic',
        'oceanic123',
        {
          '/system/user': true,
          '/system/extraLink': true,
          '/system/firmware': false,
          '/activation/ActivateDevice': false,
          '/system/icon': true,
          '/system/deviceManagement': true,
        },
      ],
      [
        'oceanops',
        'oceanops123',
        {
          '/system/user': false,
          '/system/extraLink': false,
          '/system/firmware': false,
          '/system/icon': true,
          '/system/deviceManagement': true,
          '/service/faultClearing': true,
        },
      ],
    ];
    for (const [name, password, menu] of expectations) {
      const { context, page } = await open();
      await login(page, name, password);
      await expandMenu(page);
      await page.getByTestId('menu-/personal/info').waitFor({ timeout: 10_000 });
      for (const [path, visible] of Object.entries(menu)) {
        expect(await menuVisible(page, path), `${name} menu ${path}`).toBe(visible);
      }
      await context.close();
    }
  });

  it('sends a sub-user who types an admin URL to /401', async () => {
    const { context, page } = await open();
    await login(page, 'oceanops', 'oceanops123');
    await page.goto(`${server.url}/system/firmware`);
    await page.waitForURL((u) => u.pathname === '/401', { timeout: 30_000 });
    expect(new URL(page.url()).pathname).toBe('/401');
    await context.close();
  });

  it('switches the language: the title and the menu change', async () => {
    const { context, page } = await open(1440, 900, 'zh');
    await login(page, 'admin', 'admin123');
    const zhTitle = await page.title();
    const zhMenu = await page.getByTestId('menu-/system').innerText();
    await page.getByTestId('lang-select').click();
    await page.getByTestId('lang-en').click();
    await page.waitForFunction((before) => document.title !== before, zhTitle, { timeout: 15_000 });
    const enMenu = await page.getByTestId('menu-/system').innerText();
    expect(zhTitle).toMatch(/[\u4e00-\u9fff]/);
    expect(await page.title()).toMatch(/[A-Za-z]/);
    expect(await page.title()).not.toMatch(/[\u4e00-\u9fff]/);
    expect(enMenu).not.toBe(zhMenu);
    expect(zhMenu).toMatch(/系统/);
    expect(enMenu).toMatch(/System/);
    await context.close();
  });

  it('shows the one-terminal dialog (-24) in the first browser when the account logs in on a second', async () => {
    const first = await open();
    await login(first.page, 'polaris', 'polaris123');
    const second = await open();
    await login(second.page, 'polaris', 'polaris123');
    await first.page.reload();
    await first.page.getByTestId('kicked-dialog').waitFor({ timeout: 30_000 });
    expect(await first.page.getByTestId('kicked-dialog').innerText()).toMatch(/one terminal|一个终端/);
    await first.context.close();
    await second.context.close();
  });

  it('takes screenshots of the login page, dashboard and user list in both languages, wide and narrow', async () => {
    for (const lang of ['zh', 'en'] as const) {
      for (const width of [1440, 390]) {
        const { context, page } = await open(width, width > 1000 ? 900 : 844, lang);
        await page.goto(`${server.url}/login`);
        await page.getByTestId('login-submit').waitFor();
        await screenshot(page, `login-${lang}-${width}`);
        await login(page, 'admin', 'admin123');
        await page.getByTestId('dashboard').waitFor({ timeout: 30_000 });
        await page.waitForLoadState('networkidle');
        await screenshot(page, `dashboard-${lang}-${width}`);
        await page.goto(`${server.url}/system/user`);
        await page.getByRole('cell', { name: 'polarisops', exact: true }).waitFor({ timeout: 30_000 });
        await screenshot(page, `users-${lang}-${width}`);
        expect(await page.locator('body').innerText()).not.toMatch(/\b(ra|console|validation|error)\.[a-z]+\.[a-zA-Z]/);
        await context.close();
      }
    }
  });
});
