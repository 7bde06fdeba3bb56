import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { acknowledgeCommand } from '../../server/modules/commands';
import { completeReboots } from '../../server/modules/commands/deliveryQueries';
import { faultInfo } from '../../src/domain/faultCodes';
import { skipBrowserTests, logIn, openPage, screenshot, startE2e, stopE2e, type E2eServer, type Lang } from './browser';

const PASSWORDS: Record<string, string> = { oceanic: 'oceanic123', oceanops: 'oceanops123' };
const CJK = /[\u4e00-\u9fff]/;
type Vessel = { id: number; num: string; name: string };

/**
 * The first day with the console (the items 3, 4, 5 and 9) in headless Chromium: a language
 * switch re-reads the server's texts at once, a reboot shows the vessel down and then back in words,
 * commands go to many vessels from the Commands page and the device list, and a sub-user opening a
 * vessel it may not see gets one message and a way back.
 */
describe.skipIf(skipBrowserTests)('the first day with the console', () => {
  let server: E2eServer;
  let browser: Browser;
  let vessels: Vessel[];
  let hidden: Vessel;
  beforeAll(async () => {
    ({ server, browser } = await startE2e());
    vessels = await server.db.query<Vessel>(
      `SELECT d.id, d.device_num AS num, d.name FROM devices d JOIN users u ON u.id = d.owner_id
        WHERE u.name = 'oceanic' AND d.device_num IS NOT NULL ORDER BY d.id`,
    );
    hidden = vessels.find((v) => v.id !== vessels[0]!.id)!;
    const [ops] = await server.db.query<{ id: number }>(`SELECT id FROM users WHERE name = 'oceanops'`);
    await server.db.query(`DELETE FROM sub_user_grants WHERE sub_user_id = $1 AND device_id = $2`, [ops!.id, hidden.id]);
    // Two active faults on the dashboard (the server writes their meanings in the request's language).
    await server.db.query(
      `INSERT INTO alarms (device_id, code, severity, raised_at, last_seen_at) VALUES ($1, 'E06', 'major', now(), now()), ($2, 'E11', 'major', now(), now())`,
      [vessels[0]!.id, vessels[1]!.id],
    );
  });
  afterAll(() => stopE2e(server, browser));

  const open = async (lang: Lang, who: string, width = 1440) => {
    const { context, page } = await openPage(browser, server, { lang, width, height: 900, timeZone: '8' });
    await logIn(page, server, who, PASSWORDS[who]!);
    return { context, page };
  };
  const switchTo = async (page: Page, lang: Lang) => {
    await page.getByTestId('lang-select').click();
    await page.getByTestId(`lang-${lang}`).click();
  };
  const commandsOf = (kind: string, ids: number[]) =>
    server.db.query<{ id: number; device_id: number }>(
      `SELECT id, device_id FROM device_commands WHERE kind = $1 AND device_id = ANY($2::int[])`,
      [kind, ids],
    );

  it('switches the dashboard in place: the alarm texts follow the language both ways', async () => {
    const { context, page } = await open('zh', 'oceanic');
    await page.goto(`${server.url}/dashboard`);
    const alarms = page.getByTestId('dashboard-alarms');
    await alarms.locator('.MuiChip-root').first().waitFor({ timeout: 30_000 });
    const codes = [...new Set(await alarms.locator('.MuiChip-root').allInnerTexts())];
    // What each alarm's meaning reads in a language (a code's meaning, as the server writes it; detail left out).
    const meaningsIn = (lang: Lang) => codes.map((code) => faultInfo(code)?.meaning[lang] ?? code);
    const shows = async (lang: Lang) => {
      const text = await alarms.innerText();
      return meaningsIn(lang).every((m) => text.includes(m));
    };
    expect(await shows('zh')).toBe(true);
    await switchTo(page, 'en');
    // No navigation: the panels read the server's words again, every one of them in English.
    await expect.poll(() => shows('en'), { timeout: 10_000 }).toBe(true);
    await expect
      .poll(async () => CJK.test((await alarms.innerText()) + (await page.getByTestId('dashboard-top-faults').innerText())), {
        timeout: 10_000,
      })
      .toBe(false);
    expect(page.url()).toContain('/dashboard');
    await switchTo(page, 'zh');
    await expect.poll(() => shows('zh'), { timeout: 10_000 }).toBe(true);
    const back = await alarms.innerText();
    for (const english of meaningsIn('en')) expect(back).not.toContain(english);
    await context.close();
  });

  it('shows a reboot: the vessel is rebooting while down, the command done when it is back, in words (en and zh)', async () => {
    const vessel = vessels[0]!;
    for (const lang of ['en', 'zh'] as const) {
      const { context, page } = await open(lang, 'oceanic');
      await page.goto(`${server.url}/device/deviceDataDetail?id=${vessel.id}`);
      await page.getByTestId('command-reboot').click();
      await page.getByTestId('command-confirm-text').waitFor();
      await page.getByTestId('command-send').click();
      const row = page.locator('[data-testid="command-row"][data-kind="reboot"]').first();
      await row.and(page.locator('[data-state="queued"]')).waitFor({ timeout: 15_000 });
      // The terminal takes it and goes down for 51 s.
      const [c] = await server.db.query<{ id: number }>(
        `UPDATE device_commands SET state = 'sent', sent_at = now() WHERE device_id = $1 AND kind = 'reboot' AND state = 'queued' RETURNING id`,
        [vessel.id],
      );
      expect(await acknowledgeCommand(server.db, vessel.num, { id: c!.id, ok: true, message: 'rebooting', data: { downForS: 51 } })).toBe(
        true,
      );
      await page.locator('[data-testid="state-chip"][data-state="rebooting"]').waitFor({ timeout: 15_000 });
      expect(await page.getByTestId('state-chip').innerText()).toBe(lang === 'en' ? 'Rebooting' : '重启中');
      await expect
        .poll(() => row.getByTestId('command-outcome').innerText(), { timeout: 10_000 })
        .toBe(lang === 'en' ? 'The vessel is rebooting, back in about 51 s' : '船舶正在重启，约 51 秒后恢复');
      expect(await row.innerText()).not.toMatch(/downForS|rebooting ·/);
      await screenshot(page, `firstday-rebooting-${lang}-1440`);
      // Back: the vessel connects again.
      await new Promise((r) => setTimeout(r, 1100));
      expect(await completeReboots(server.db, [vessel.num], [new Date()])).toBe(1);
      await row.and(page.locator('[data-state="done"]')).waitFor({ timeout: 15_000 });
      expect(await row.getByTestId('command-outcome').innerText()).toMatch(
        lang === 'en' ? /^Rebooted: back online after \d+ s$/ : /^重启完成：\d+ 秒后恢复在线$/,
      );
      await page.locator('[data-testid="state-chip"]:not([data-state="rebooting"])').waitFor({ timeout: 15_000 });
      await context.close();
    }
  });

  it('sends a command to several vessels from the Commands page and from the device list, asking before a reboot', async () => {
    const [a, b, c, d] = vessels as [Vessel, Vessel, Vessel, Vessel];
    for (const lang of ['zh', 'en'] as const) {
      const { context, page } = await open(lang, 'oceanic');
      await page.goto(`${server.url}/device/command`);
      expect(await page.getByTestId('commands-title').innerText()).toBe(lang === 'zh' ? '远程指令' : 'Commands');
      for (const v of [a, b]) {
        await page.getByTestId('command-vessels').fill(v.name);
        await page.getByTestId(`command-vessel-${v.id}`).click();
      }
      const before = (await commandsOf('reboot', [a.id, b.id])).length;
      await page.getByTestId('command-reboot').click();
      const confirm = page.getByTestId('command-confirm-text');
      await confirm.waitFor();
      expect(await confirm.innerText()).toContain(a.name);
      expect(await confirm.innerText()).toContain(b.name);
      expect((await commandsOf('reboot', [a.id, b.id])).length).toBe(before);
      await page.waitForTimeout(300);
      await screenshot(page, `firstday-commands-confirm-${lang}-1440`);
      await page.getByTestId('command-send').click();
      await expect.poll(async () => (await commandsOf('reboot', [a.id, b.id])).length, { timeout: 10_000 }).toBe(before + 2);
      await page.locator('[data-testid="command-outcome"]').first().waitFor({ timeout: 10_000 });

      // The device list: tick two vessels, then "Send a command" > diagnostics (sent at a click, as on the vessel page).
      const diagnostics = (await commandsOf('diagnostics', [c.id, d.id])).length;
      await page.goto(`${server.url}/system/deviceManagement`);
      for (const v of [c, d])
        await page.locator('.RaDataTable-table tbody tr', { hasText: v.name }).first().locator('input[type=checkbox]').check();
      await page.getByTestId('bulk-command').click();
      await page.getByTestId('bulk-command-diagnostics').click();
      await expect.poll(async () => (await commandsOf('diagnostics', [c.id, d.id])).length, { timeout: 10_000 }).toBe(diagnostics + 2);
      await context.close();
    }
  });

  it('tells a sub-user once that a vessel is not its to see, with a way back, in zh and en', async () => {
    for (const lang of ['zh', 'en'] as const) {
      const { context, page } = await open(lang, 'oceanops');
      await page.goto(`${server.url}/device/deviceDataDetail?id=${hidden.id}`);
      const notice = page.getByTestId('no-vessel-access');
      await notice.waitFor({ timeout: 15_000 });
      await page.waitForTimeout(600); // time for any late message to show
      expect(await page.getByTestId('error-message').count()).toBe(0);
      expect(await page.locator('.MuiSnackbar-root').count()).toBe(0);
      expect(await page.getByTestId('no-vessel-access').count()).toBe(1);
      const body = await page.locator('body').innerText();
      expect(body).not.toMatch(lang === 'zh' ? /加载失败|重试/ : /Failed to load|Retry/);
      expect(await notice.innerText()).toMatch(lang === 'zh' ? /无权查看此船舶/ : /No access to this vessel/);
      await screenshot(page, `firstday-no-access-${lang}-1440`);
      await page.getByTestId('no-access-choose').click();
      await page.getByTestId('choose-vessel').waitFor();
      expect(page.url()).not.toContain(`id=${hidden.id}`);
      await context.close();
    }
  });
});
