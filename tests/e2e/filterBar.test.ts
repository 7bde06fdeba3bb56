import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { skipBrowserTests, logIn, openPage, startE2e, stopE2e, type E2eServer } from './browser';

/**
 * A list's filter bar in headless Chromium: the search box and the filters beside it (selects on the
 * delivery log) are boxes of one height on one line at 1440 px, and at 390 px each takes its own
 * full row, in both languages, without the page scrolling sideways.
 */
describe.skipIf(skipBrowserTests)('the filter bar of a declared list', () => {
  let server: E2eServer;
  let browser: Browser;
  beforeAll(async () => {
    ({ server, browser } = await startE2e());
  });
  afterAll(() => stopE2e(server, browser));

  const LOG = `/alarm/notification?filter=${encodeURIComponent(JSON.stringify({ state: 'failed', channel: 'webhook' }))}`;

  /** The input boxes of the filter bar (their outlined box, not the label above), and the form's width. */
  const boxes = (width: number, lang: 'zh' | 'en') => async () => {
    const { context, page } = await openPage(browser, server, { lang, width });
    try {
      await logIn(page, server, 'admin', 'admin123', LOG);
      await page.locator('.ra-input-channel .MuiInputBase-root').waitFor({ timeout: 30_000 });
      return await page.evaluate(() => {
        const box = (selector: string) => {
          const r = document.querySelector(`${selector} .MuiInputBase-root`)!.getBoundingClientRect();
          return { top: Math.round(r.top), bottom: Math.round(r.bottom), left: Math.round(r.left), width: Math.round(r.width) };
        };
        const form = document.querySelector('.filter-field')!.parentElement!.getBoundingClientRect();
        return {
          search: box('.ra-input-search'),
          state: box('.ra-input-state'),
          channel: box('.ra-input-channel'),
          formWidth: Math.round(form.width),
          overflow: document.scrollingElement!.scrollWidth - window.innerWidth,
        };
      });
    } finally {
      await context.close();
    }
  };

  it.each(['zh', 'en'] as const)('puts the search box and the selects on one line, of one height, at 1440 px (%s)', async (lang) => {
    const { search, state, channel } = await boxes(1440, lang)();
    for (const other of [state, channel]) {
      expect(other.top).toBe(search.top);
      expect(other.bottom).toBe(search.bottom);
    }
    expect(state.left).toBeGreaterThan(search.left);
  });

  it.each(['zh', 'en'] as const)('gives each filter its own full row at 390 px (%s)', async (lang) => {
    const { search, state, channel, formWidth, overflow } = await boxes(390, lang)();
    expect(overflow).toBeLessThanOrEqual(0);
    expect(state.top).toBeGreaterThanOrEqual(search.bottom);
    expect(channel.top).toBeGreaterThanOrEqual(state.bottom);
    // The search box fills its row (but for react-admin's 16 px spacer); a select leaves room for its remove button.
    expect(search.width).toBeGreaterThan(formWidth - 24);
    expect(state.width).toBeGreaterThan(formWidth - 60);
    expect(channel.width).toBe(state.width);
  });
});
