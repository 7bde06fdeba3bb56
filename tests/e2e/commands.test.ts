import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { acknowledgeCommand } from '../../server/modules/commands';
import { skipBrowserTests, logIn, openPage, startE2e, stopE2e, type E2eServer, type Lang } from './browser';

const SHOTS = process.env.COMMANDS_SHOTS ?? 'tests/e2e/screenshots';
const PASSWORDS: Record<string, string> = { oceanic: 'oceanic123', oceanops: 'oceanops123' };

/** The vessel page's Commands section and the fleet-wide command list in headless Chromium. */
describe.skipIf(skipBrowserTests)('commands to antennas in headless Chromium', () => {
  let server: E2eServer;
  let browser: Browser;
  let vessel: { id: number; num: string; name: string };
  beforeAll(async () => {
    ({ server, browser } = await startE2e());
    const [row] = await server.db.query<{ id: number; num: string; name: string }>(
      `SELECT d.id, d.device_num AS num, d.name FROM devices d JOIN users u ON u.id = d.owner_id
        WHERE u.name = 'oceanic' AND d.device_num IS NOT NULL AND d.id IN (SELECT device_id FROM sub_user_grants g JOIN users s ON s.id = g.sub_user_id WHERE s.name = 'oceanops')
        ORDER BY d.id LIMIT 1`,
    );
    vessel = row!;
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(() => stopE2e(server, browser));

  const open = async (lang: Lang, who: string, width = 1440, height = 900) => {
    const { context, page } = await openPage(browser, server, { lang, width, height, timeZone: '8' });
    await logIn(page, server, who, PASSWORDS[who]!);
    await page.goto(`${server.url}/device/deviceDataDetail?id=${vessel.id}`);
    await page.getByTestId('command-section').waitFor({ timeout: 30_000 });
    return { context, page };
  };
  const row = (page: Page, kind: string) => page.locator(`[data-testid="command-row"][data-kind="${kind}"]`).first();
  /**
   * The device answers: what the device link does when the terminal acks over MQTT. The command is
   * queued, or already sent if the vessel connected meanwhile (a connect claims its queued commands).
   */
  const deviceAcks = async (kind: string, ok: boolean, data?: object) => {
    const [c] = await server.db.query<{ id: number }>(
      `UPDATE device_commands SET state = 'sent', sent_at = COALESCE(sent_at, now())
        WHERE id = (SELECT id FROM device_commands WHERE device_id = $1 AND kind = $2 AND state IN ('queued', 'sent') ORDER BY id DESC LIMIT 1)
        RETURNING id`,
      [vessel.id, kind],
    );
    expect(await acknowledgeCommand(server.db, vessel.num, { id: c!.id, ok, data, message: ok ? undefined : 'antenna busy' })).toBe(true);
  };

  it('asks before a reboot, queues it for the offline device and shows its acknowledged state (en and zh)', async () => {
    for (const lang of ['en', 'zh'] as const) {
      const { context, page } = await open(lang, 'oceanic');
      await page.getByTestId('command-list').waitFor();
      const reboots = async () =>
        (await server.db.query(`SELECT id FROM device_commands WHERE device_id = $1 AND kind = 'reboot'`, [vessel.id])).length;
      const rebootsBefore = await reboots();
      await page.getByTestId('command-reboot').click();
      const confirmText = page.getByTestId('command-confirm-text');
      await confirmText.waitFor();
      expect(await confirmText.textContent()).toContain(vessel.name);
      // Nothing is sent before the confirmation.
      expect(await reboots()).toBe(rebootsBefore);
      await page.waitForTimeout(400); // the dialog's fade-in, for the picture
      await page.screenshot({ path: `${SHOTS}/commands-confirm-${lang}-1440.png` });
      await page.getByTestId('command-send').click();
      await row(page, 'reboot').and(page.locator('[data-state="queued"]')).waitFor();
      expect(
        await row(page, 'reboot')
          .getByText(lang === 'en' ? 'Queued' : '排队中')
          .count(),
      ).toBe(1);
      await deviceAcks('reboot', true, { downForS: 42 });
      // The section reads the open command again by itself until it closes.
      await row(page, 'reboot').and(page.locator('[data-state="acknowledged"]')).waitFor({ timeout: 15_000 });
      // Acknowledged, a reboot is under way: the vessel is down until it is back (docs/api.md, "command").
      expect(await row(page, 'reboot').textContent()).toContain(lang === 'en' ? 'Rebooting' : '重启中');

      // A re-point: the satellite is chosen from the known ones, and it is confirmed too.
      await page.getByTestId('command-repoint').click();
      await page.getByTestId('command-confirm-text').waitFor();
      await page.locator('#command-satellite').click();
      await page.getByTestId('satellite-Intelsat 39').click();
      await page.getByTestId('command-send').click();
      await row(page, 'repoint').and(page.locator('[data-state="queued"]')).waitFor();
      expect(await row(page, 'repoint').textContent()).toContain('Intelsat 39');
      await deviceAcks('repoint', false);
      await row(page, 'repoint').and(page.locator('[data-state="failed"]')).waitFor({ timeout: 15_000 });
      expect(await row(page, 'repoint').textContent()).toContain('antenna busy');

      // An interval out of range is refused in the form, in the page's language.
      await page.getByTestId('command-setInterval').click();
      await page.getByTestId('command-seconds').fill('2');
      await page.getByTestId('command-send').click();
      await page
        .getByText(
          lang === 'en' ? 'The report interval must be a whole number of seconds from 5 to 3600' : '上报间隔必须是 5 到 3600 秒之间的整数',
        )
        .waitFor();
      await page.getByTestId('command-seconds').fill('60');
      await page.getByTestId('command-send').click();
      await row(page, 'setInterval').waitFor();
      // Diagnostics need no dialog.
      await page.getByTestId('command-diagnostics').click();
      await row(page, 'diagnostics').waitFor();
      await deviceAcks('diagnostics', true, { uptimeS: 5120, satellite: 'AsiaSat 7', modemLock: true });
      await row(page, 'diagnostics').and(page.locator('[data-state="acknowledged"]')).waitFor({ timeout: 15_000 });
      await page.getByTestId('command-section').scrollIntoViewIfNeeded();
      await page.getByTestId('command-section').screenshot({ path: `${SHOTS}/commands-section-${lang}-1440.png` });

      // The fleet-wide list, filtered by state.
      await page.goto(`${server.url}/device/command?filter=${encodeURIComponent(JSON.stringify({ state: 'acknowledged' }))}`);
      await page.locator('.MuiChip-root[data-value="acknowledged"]').first().waitFor({ timeout: 30_000 });
      expect(await page.locator('.MuiChip-root[data-value="failed"]').count()).toBe(0);
      await page.screenshot({ path: `${SHOTS}/commands-list-${lang}-1440.png` });
      await context.close();
    }
  });

  it('works on a phone, and shows a sub-user without the grant the list only', async () => {
    for (const lang of ['en', 'zh'] as const) {
      const { context, page } = await open(lang, 'oceanic', 390, 844);
      await page.getByTestId('command-buttons').waitFor();
      await row(page, 'reboot').waitFor();
      await page.getByTestId('command-section').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/commands-section-${lang}-390.png` });
      // The section is no wider than the phone.
      const box = await page.getByTestId('command-section').boundingBox();
      expect(box!.width).toBeLessThanOrEqual(390);
      await page.getByTestId('command-reboot').click();
      await page.getByTestId('command-confirm-text').waitFor();
      await page.waitForTimeout(400); // the dialog's fade-in, for the picture
      await page.screenshot({ path: `${SHOTS}/commands-confirm-${lang}-390.png` });
      await context.close();
      await page.goto('about:blank').catch(() => undefined);
      const list = await openPage(browser, server, { lang, width: 390, height: 844, timeZone: '8' });
      await logIn(list.page, server, 'oceanic', PASSWORDS.oceanic!);
      await list.page.goto(`${server.url}/device/command`);
      await list.page.locator('.MuiChip-root[data-value]').first().waitFor({ timeout: 30_000 });
      await list.page.screenshot({ path: `${SHOTS}/commands-list-${lang}-390.png` });
      await list.context.close();
    }
    const { context, page } = await open('en', 'oceanops');
    await page.getByTestId('command-read-only').waitFor();
    expect(await page.getByTestId('command-buttons').count()).toBe(0);
    await row(page, 'reboot').waitFor();
    await context.close();
  });
});
