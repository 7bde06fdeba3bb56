import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { skipBrowserTests, logIn, openPage, screenshot, startE2e, stopE2e, type E2eServer, type Lang } from './browser';
import { hashDeviceSecret } from '../../server/auth/deviceCredentials';
import { startFirmwareAgent } from '../../server/simulator/firmwareAgent';

const SECRET = 'e2e-firmware-secret-0123456789';
const FILE_BYTES = 3 * 1024 * 1024;

describe.skipIf(skipBrowserTests)('firmware pages in headless Chromium', () => {
  let server: E2eServer;
  let browser: Browser;
  beforeAll(async () => {
    ({ server, browser } = await startE2e());
  });
  afterAll(() => stopE2e(server, browser));

  const open = (lang: Lang, width = 1440, height = 900) => openPage(browser, server, { lang, width, height });
  const login = (page: Page, to: string) => logIn(page, server, 'admin', 'admin123', to);

  it.each([
    ['zh', 'V3.1.0', '更新信息', '已升级'],
    ['en', 'V3.2.0', 'Update info', 'Updated'],
  ] as const)(
    'uploads a firmware file with a progress bar and rolls it out to three simulated vessels (%s)',
    async (lang, version, updateInfoLabel, updatedLabel) => {
      const { context, page } = await open(lang);
      await login(page, '/system/firmware/create');
      await page.getByTestId('fw-deviceType').waitFor({ timeout: 30_000 });
      await expect.poll(async () => page.getByTestId('fw-size-limit').textContent(), { timeout: 10_000 }).toContain('512');
      // A bad version is refused as you type, in the page's language.
      await page.getByTestId('fw-version').fill('1.0');
      await expect
        .poll(async () => (await page.locator('.MuiFormControl-root', { has: page.getByTestId('fw-version') }).textContent()) ?? '')
        .toContain(lang === 'zh' ? '版本格式应为 V1.0.0' : 'Format Like V1.0.0');
      await page.getByTestId('fw-deviceType').fill('VSAT terminal');
      await page.getByTestId('fw-customer').fill('Oceanic Shipping');
      await page.getByTestId('fw-model').fill('VT-2000');
      await page.getByTestId('fw-version').fill(version);
      await page.getByTestId('fw-updateInfo').fill(lang === 'zh' ? '修复跟踪漂移' : 'Fixes tracking drift');
      expect(await page.getByText(updateInfoLabel).count()).toBeGreaterThan(0);
      await page
        .getByTestId('fw-file')
        .setInputFiles({ name: `vt2000-${version}.bin`, mimeType: 'application/octet-stream', buffer: randomBytes(FILE_BYTES) });
      // Slow the link so the upload takes a few seconds and its progress can be seen.
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 20,
        downloadThroughput: -1,
        uploadThroughput: 1024 * 1024,
      });
      await page.getByTestId('fw-submit').click();
      const progressText = page.getByTestId('fw-progress-text');
      await expect
        .poll(
          async () => {
            const text = (await progressText.textContent().catch(() => '')) ?? '';
            const percent = Number(/(\d+)%/.exec(text)?.[1] ?? 0);
            return percent > 0 && percent < 100;
          },
          { timeout: 20_000, interval: 100 },
        )
        .toBe(true);
      const bar = page.getByTestId('fw-progress').getByRole('progressbar');
      expect(Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThan(0);
      await screenshot(page, `firmware-upload-progress-${lang}`);
      await page.waitForURL((u) => /^\/system\/firmware\/\d+$/.test(u.pathname), { timeout: 60_000 });
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      const firmwareId = Number(new URL(page.url()).pathname.split('/').pop());
      const [stored] = await server.db.query<{ size: number }>('SELECT file_size::int AS size FROM firmware_packages WHERE id = $1', [
        firmwareId,
      ]);
      expect(stored!.size).toBe(FILE_BYTES);

      // Roll it out to three vessels, two at a time.
      await page.getByTestId('fw-new-rollout').click();
      const dialog = page.getByTestId('fw-rollout-dialog');
      await dialog.locator('[data-testid^="fw-candidate-"]').first().waitFor({ timeout: 15_000 });
      const rows = dialog.locator('[data-testid^="fw-candidate-"]:has(input[type=checkbox]:not([disabled]))');
      const ids: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        const row = rows.nth(i);
        ids.push(Number((await row.getAttribute('data-testid'))!.replace('fw-candidate-', '')));
        await row.locator('input[type=checkbox]').check();
      }
      await page.getByTestId('fw-max-concurrent').fill('2');
      await screenshot(page, `firmware-rollout-dialog-${lang}`);
      await page.getByTestId('fw-rollout-start').click();
      await dialog.waitFor({ state: 'hidden', timeout: 15_000 });
      for (const id of ids)
        await expect.poll(async () => page.getByTestId(`fw-target-${id}`).getAttribute('data-state'), { timeout: 15_000 }).toBe('queued');

      // The three vessels take the update through the device API, as the simulator's vessels do.
      const vessels = await server.db.query<{ id: number; num: string }>(
        'SELECT id, device_num AS num FROM devices WHERE id = ANY($1::int[])',
        [ids],
      );
      for (const v of vessels) await server.db.query('UPDATE devices SET secret_hash = $2 WHERE id = $1', [v.id, hashDeviceSecret(SECRET)]);
      const errors: string[] = [];
      const agent = startFirmwareAgent({
        apiBase: server.api,
        devices: vessels.map((v) => ({ deviceNum: v.num, secret: SECRET })),
        pollMs: 700,
        stepMs: 700,
        failureRate: 0,
        onError: (m) => errors.push(m),
      });
      try {
        await agent.pollNow();
        await expect
          .poll(
            async () => {
              const states = await Promise.all(ids.map((id) => page.getByTestId(`fw-target-${id}`).getAttribute('data-state')));
              return states.includes('queued') && states.some((s) => s === 'downloading' || s === 'downloaded' || s === 'updating');
            },
            { timeout: 20_000, interval: 200 },
          )
          .toBe(true);
        await screenshot(page, `firmware-rollout-live-${lang}`);
        for (const id of ids)
          await expect
            .poll(async () => page.getByTestId(`fw-target-${id}`).getAttribute('data-state'), { timeout: 60_000 })
            .toBe('updated');
      } finally {
        await agent.stop();
      }
      expect(errors).toEqual([]);
      expect(await page.getByTestId(`fw-target-${ids[0]}`).textContent()).toContain(updatedLabel);
      await page.waitForTimeout(800); // let the bars and chips finish their transitions
      await screenshot(page, `firmware-rollout-done-${lang}`);

      // Edit what may change after the upload, validated as you type.
      await page.getByTestId('fw-edit').click();
      const form = page.getByTestId('fw-edit-form');
      const customer = form.getByRole('textbox', { name: lang === 'zh' ? '客户' : 'Customer' });
      await customer.fill('');
      await expect.poll(async () => form.textContent(), { timeout: 5_000 }).toContain(lang === 'zh' ? '必填项' : 'required');
      await customer.fill('Polaris Fleet');
      await form.locator('button[type=submit]').click();
      await form.waitFor({ state: 'hidden', timeout: 10_000 });
      await page.getByText('Polaris Fleet').first().waitFor({ timeout: 10_000 });

      // The list shows the package with its status.
      await page.goto(`${server.url}/system/firmware`);
      await page.getByTestId(`fw-open-${firmwareId}`).waitFor({ timeout: 15_000 });
      await screenshot(page, `firmware-list-${lang}`);
      await context.close();
    },
  );

  it('fits a phone: list and package page', async () => {
    const { context, page } = await open('zh', 390, 844);
    await login(page, '/system/firmware');
    await page.locator('[data-testid^="fw-open-"]').first().waitFor({ timeout: 30_000 });
    await screenshot(page, 'firmware-list-phone-zh');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await page.locator('[data-testid^="fw-open-"]').first().click();
    await page.getByTestId('fw-new-rollout').waitFor({ timeout: 15_000 });
    await screenshot(page, 'firmware-rollout-phone-zh');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await context.close();
  });
});
