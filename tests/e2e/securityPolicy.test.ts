import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { skipBrowserTests, logIn, openPage, startE2e, stopE2e, type E2eServer } from './browser';

/** The console under its own Content-Security-Policy (docs/architecture.md, "Security headers"): nothing it needs is blocked. */
describe.skipIf(skipBrowserTests)('the console under its Content-Security-Policy', () => {
  let server: E2eServer;
  let browser: Browser;
  beforeAll(async () => {
    ({ server, browser } = await startE2e());
  });
  afterAll(() => stopE2e(server, browser));

  it('logs in and shows the dashboard and its map with no CSP violation, and cannot be framed', async () => {
    const { context, page } = await openPage(browser, server);
    try {
      const violations: string[] = [];
      await page.exposeFunction('reportViolation', (text: string) => void violations.push(text));
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) => {
          (window as unknown as { reportViolation(text: string): void }).reportViolation(`${e.violatedDirective} ${e.blockedURI}`);
        });
      });
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
      });
      const response = await page.goto(`${server.url}/login`);
      expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
      expect(response?.headers()['x-frame-options']).toBe('DENY');
      await logIn(page, server, 'admin', 'admin123');
      await page.waitForURL(/\/dashboard/, { timeout: 30_000 });
      await page.locator('.leaflet-container').first().waitFor({ timeout: 30_000 });
      // The map has drawn its base map (the shipped land layer), and the test badge shows: the config block was read.
      await page.locator('.leaflet-container path, .leaflet-container img, .leaflet-container canvas').first().waitFor({ timeout: 30_000 });
      await page.waitForTimeout(1000);
      expect(violations).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
