import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { skipBrowserTests, logIn, openPage, screenshot, startE2e, stopE2e, type E2eServer, type Lang } from './browser';

/** Twenty pages an administrator may open: each one opens its own tab. */
const TWENTY_PAGES = [
  '/dashboard',
  '/system/user',
  '/system/deviceManagement',
  '/system/deviceAuth',
  '/system/firmware',
  '/system/extraLink',
  '/system/auditLog',
  '/system/permissionConfig',
  '/device/deviceData',
  '/device/deviceManageData',
  '/device/map',
  '/device/voyage',
  '/device/cameraInfo',
  '/device/timeStatistics',
  '/service/faultClearing',
  '/service/afterService',
  '/activation/ActivateDevice',
  '/personal/info',
  '/personal/password',
  '/personal/preference',
];

/** A route change inside the console (no reload): the router follows popstate. */
async function goTo(page: Page, path: string) {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.waitForURL((u) => `${u.pathname}${u.search}` === path, { timeout: 15_000 });
}

/** How far the page itself scrolls sideways beyond the window (0 when it fits). */
const pageOverflow = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);

/** Whether the element is inside the window and is what the user sees at its centre (not covered). */
async function reachable(page: Page, testId: string) {
  return page
    .getByTestId(testId)
    .first()
    .evaluate((el) => {
      const r = el.getBoundingClientRect();
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      const hit = document.elementFromPoint(x, y);
      return { left: r.left, right: r.right, width: window.innerWidth, onTop: Boolean(hit && (hit === el || el.contains(hit))) };
    });
}

/** Waits until the page's address has not changed for a second. */
async function urlSettled(page: Page) {
  let last = page.url();
  let since = Date.now();
  while (Date.now() - since < 1_000) {
    await page.waitForTimeout(100);
    if (page.url() !== last) [last, since] = [page.url(), Date.now()];
  }
}

describe.skipIf(skipBrowserTests)('layout: tabs strip, navbar, tables, mobile mode', () => {
  let server: E2eServer;
  let browser: Browser;
  beforeAll(async () => {
    // The demo's history (faults on the status monitor, long rows) is what this test lays out.
    const before = process.env.SEED_STORY;
    process.env.SEED_STORY = '1';
    try {
      ({ server, browser } = await startE2e());
    } finally {
      if (before === undefined) delete process.env.SEED_STORY;
      else process.env.SEED_STORY = before;
    }
  });
  afterAll(() => stopE2e(server, browser));

  for (const [width, lang] of [
    [1440, 'en'],
    [390, 'en'],
    [1440, 'zh'],
    [390, 'zh'],
  ] as [number, Lang][]) {
    // Twenty pages mounted one after another: about 5 s on a quiet machine, 6-7 s in a full `.ci/run`.
    // In 2 of 3 full runs one of the four (zh both times, 1440 and 390 px) hung until its timeout
    // instead, whatever the timeout (120 s, then 240 s): a hang not yet explained (docs/architecture.md,
    // "Known problems"), not slowness. So 90 s, and one more try in a fresh window (the e2e project's retry).
    it(
      `keeps the page as wide as the window with 20 tabs open at ${width} px (${lang}); the navbar stays whole and log-out works`,
      { timeout: 90_000 },
      async () => {
        const { context, page } = await openPage(browser, server, { lang, width, height: 860 });
        // Closed however the case ends: a window left open on a timeout would keep its page busy beside the next.
        onTestFinished(() => context.close());
        await logIn(page, server, 'admin', 'admin123');
        await page.getByTestId('tab-/dashboard').waitFor({ timeout: 30_000 });
        for (const path of TWENTY_PAGES) {
          await goTo(page, path);
          await page.getByTestId(`tab-${path}`).waitFor({ state: 'attached', timeout: 30_000 });
        }
        await goTo(page, '/system/user');
        await expect.poll(() => page.locator('[role="tablist"] [role="tab"]').count(), { timeout: 15_000 }).toBe(20);
        // the strip scrolls inside itself: arrows appear, the page does not widen
        expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
        await page.getByTestId('tabs-forward').waitFor({ timeout: 5_000 });
        const strip = await page.locator('[role="tablist"]').evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
        expect(strip.scroll).toBeGreaterThan(strip.client);
        // the active tab is scrolled into view (after the route change; on a busy machine that may take a moment)
        await expect
          .poll(
            async () => {
              const active = await reachable(page, 'tab-/system/user');
              return { inFromLeft: active.left >= 0, inFromRight: active.right <= width };
            },
            { timeout: 10_000 },
          )
          .toEqual({ inFromLeft: true, inFromRight: true });
        // every navbar control is in the window and clickable
        for (const id of ['sidebar-toggle', 'bell', 'tz-select', 'lang-select', 'user-menu']) {
          const box = await reachable(page, id);
          expect(box.right, `${id} right edge`).toBeLessThanOrEqual(width);
          expect(box.left, `${id} left edge`).toBeGreaterThanOrEqual(0);
          expect(box.onTop, `${id} is not covered`).toBe(true);
        }
        // the language button reads as written (no capitals) and its name holds that text
        const langButton = page.getByTestId('lang-select');
        if (width > 600) {
          const seen = await langButton.innerText();
          expect(seen.trim()).toBe(lang === 'en' ? 'English' : '中文');
          expect(await langButton.getAttribute('aria-label')).toContain(seen.trim());
          const userSeen = (await page.getByTestId('user-menu').innerText()).trim();
          expect(await page.getByTestId('user-menu').getAttribute('aria-label')).toContain(userSeen);
        }
        await screenshot(page, `layout-20tabs-${lang}-${width}`);
        // the strip scrolls back with its arrow
        await page.getByTestId('tabs-back').click();
        await expect
          .poll(() => page.locator('[role="tablist"]').evaluate((el) => el.scrollLeft), { timeout: 5_000 })
          .toBeLessThan(strip.scroll - strip.client);
        await page.getByTestId('user-menu').click();
        await page.getByTestId('logout').click();
        await page.waitForURL((u) => u.pathname.startsWith('/login'), { timeout: 15_000 });
      },
    );
  }

  it('is in mobile mode at 800 px: the menu is a drawer (no icon rail) that closes on a route change', async () => {
    const { context, page } = await openPage(browser, server, { lang: 'en', width: 800, height: 900 });
    await logIn(page, server, 'admin', 'admin123');
    await page.getByTestId('tab-/dashboard').waitFor({ timeout: 30_000 });
    // The drawer closes on every route change: open it once the log-in's redirects are over.
    await page.waitForURL((u) => u.pathname === '/dashboard', { timeout: 15_000 });
    await urlSettled(page);
    expect(await page.getByTestId('menu-/dashboard').isVisible()).toBe(false);
    await page.getByTestId('sidebar-toggle').click();
    await page.getByTestId('menu-/personal').waitFor({ state: 'visible', timeout: 10_000 });
    await page.waitForTimeout(400); // the drawer's slide
    await screenshot(page, 'layout-drawer-en-800');
    await page.getByTestId('menu-/personal').click();
    await page.getByTestId('menu-/personal/info').click();
    await page.waitForURL((u) => u.pathname === '/personal/info', { timeout: 15_000 });
    await page.getByTestId('menu-/personal/info').waitFor({ state: 'hidden', timeout: 10_000 });
    // and a route change from elsewhere (a tab) closes it too
    await page.getByTestId('sidebar-toggle').click();
    await page.getByTestId('menu-/dashboard').waitFor({ state: 'visible', timeout: 10_000 });
    await goTo(page, '/dashboard');
    await page.getByTestId('menu-/dashboard').waitFor({ state: 'hidden', timeout: 10_000 });
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
    await context.close();
  });

  for (const lang of ['en', 'zh'] as Lang[]) {
    it(`shows the row actions of the status monitor and the device list inside the window at 1440 px (${lang})`, async () => {
      const { context, page } = await openPage(browser, server, { lang, width: 1440, height: 900 });
      await logIn(page, server, 'admin', 'admin123', '/device/deviceManageData');
      await page.locator('[data-testid^="detail-"]').first().waitFor({ timeout: 30_000 });
      const detailId = await page.locator('[data-testid^="detail-"]').first().getAttribute('data-testid');
      const trackId = await page.locator('[data-testid^="track-"]').first().getAttribute('data-testid');
      for (const id of [detailId!, trackId!]) {
        const box = await reachable(page, id);
        expect(box.right, `${id} right edge`).toBeLessThanOrEqual(1440);
        expect(box.onTop, `${id} is not covered`).toBe(true);
      }
      // no fault text is cut: every fault chip shows its whole label (once the demo's reports are in)
      await page.locator('[data-testid="monitor-table"] [data-testid^="fault-E"]').first().waitFor({ timeout: 60_000 });
      const clipped = await page
        .locator('[data-testid="monitor-table"] [data-testid^="fault-"] .MuiChip-label')
        .evaluateAll((labels) => labels.filter((l) => l.scrollWidth > l.clientWidth + 1).length);
      expect(clipped).toBe(0);
      expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `layout-monitor-${lang}-1440`);

      await goTo(page, '/system/deviceManagement');
      await page.locator('[data-testid^="pin-"]').first().waitFor({ timeout: 30_000 });
      const pinId = await page.locator('[data-testid^="pin-"]').first().getAttribute('data-testid');
      const pin = await reachable(page, pinId!);
      expect(pin.right).toBeLessThanOrEqual(1440);
      expect(pin.onTop).toBe(true);
      const edit = await page
        .locator('td.column-undefined a, td.column-undefined button')
        .last()
        .evaluate((el) => el.getBoundingClientRect().right);
      expect(edit).toBeLessThanOrEqual(1440);
      // the table fits its card: the last cell ends inside the list's card
      const fit = await page
        .locator('.RaList-main')
        .first()
        .evaluate((main) => {
          const card = main.getBoundingClientRect();
          const last = main.querySelector('tbody tr td:last-of-type')!.getBoundingClientRect();
          return { card: card.right, last: last.right };
        });
      expect(fit.last).toBeLessThanOrEqual(fit.card + 1);
      // and every column is in it: nothing scrolls under the actions (the group column included)
      const table = await page
        .locator('.RaDataTable-root')
        .first()
        .evaluate((el) => {
          const wrapper = el.querySelector('.RaDataTable-tableWrapper') ?? el;
          return { scroll: Math.max(el.scrollWidth, wrapper.scrollWidth), client: el.clientWidth };
        });
      expect(table.scroll).toBeLessThanOrEqual(table.client + 1);
      expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `layout-devices-${lang}-1440`);
      await context.close();
    });
  }

  for (const lang of ['en', 'zh'] as Lang[]) {
    it(`fits the status monitor and the device list at 390 px (${lang})`, async () => {
      const { context, page } = await openPage(browser, server, { lang, width: 390, height: 844 });
      await logIn(page, server, 'admin', 'admin123', '/device/deviceManageData');
      await page.locator('[data-testid^="detail-"]').first().waitFor({ timeout: 30_000 });
      expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `layout-monitor-${lang}-390`);
      await goTo(page, '/system/deviceManagement');
      await page.locator('[data-testid^="pin-"]').first().waitFor({ timeout: 30_000 });
      expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
      const pin = await reachable(page, (await page.locator('[data-testid^="pin-"]').first().getAttribute('data-testid'))!);
      expect(pin.right).toBeLessThanOrEqual(390);
      await screenshot(page, `layout-devices-${lang}-390`);
      await context.close();
    });
  }
});
