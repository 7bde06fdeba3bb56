import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { skipBrowserTests, logIn, openPage, screenshot, startE2e, stopE2e, type E2eServer, type Lang } from './browser';
import { issueDemoSecrets } from '../../server/simulator/demoDevices';

/** The refresh period the browser is given (the server's console settings). */
const REFRESH_S = 2;

describe.skipIf(skipBrowserTests)('live monitoring in headless Chromium', () => {
  let server: E2eServer;
  let browser: Browser;
  /** The demo fleet: deviceNum -> secret, and who owns what. */
  let fleet: { deviceNum: string; secret: string; id: number; owner: string; name: string }[] = [];

  const ingest = (deviceNum: string, secret: string, body: unknown) =>
    fetch(`${server.api}/deviceModule/ingest/report?lang=en`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-device-num': deviceNum, 'x-device-secret': secret },
      body: JSON.stringify(body),
    }).then((r) => r.json() as Promise<{ code: number; data: unknown }>);

  const report = (i: number, faults: string[] = [], at = new Date()) => ({
    deviceTime: at.toISOString(),
    lat: 5 + (i % 10) * 1.5,
    lon: 110 + Math.floor(i / 10) * 2.5,
    speed: 12 + (i % 5),
    heading: (i * 40) % 360,
    azimuth: 180,
    elevation: 45,
    skew: 0,
    satellite: { name: 'AsiaSat 7', longitude: 105.5 },
    signalLevel: 70,
    snr: 11,
    modemLock: true,
    txOn: true,
    faults,
    firmware: { adu: 'V2.1.3', bdu: 'V1.0.9' },
  });

  beforeAll(async () => {
    ({ server, browser } = await startE2e());
    // The demo fleet reports once, cleanly, at sea (the simulator itself is not started, so nothing random happens).
    const secrets = await issueDemoSecrets(server.db);
    const owners = await server.db.query<{ num: string; id: number; owner: string; name: string }>(
      `SELECT d.device_num AS num, d.id, u.name AS owner, d.name FROM devices d JOIN users u ON u.id = d.owner_id WHERE d.device_num = ANY($1::text[])`,
      [secrets.map((s) => s.deviceNum)],
    );
    fleet = secrets.map((s) => ({ ...s, ...owners.find((o) => o.num === s.deviceNum)! }));
    for (const [i, v] of fleet.entries())
      expect((await ingest(v.deviceNum, v.secret, report(i, [], new Date(Date.now() - 60_000)))).code).toBe(0);
  });
  afterAll(() => stopE2e(server, browser));

  async function open(width = 1440, lang: Lang = 'zh'): Promise<{ context: BrowserContext; page: Page }> {
    const { context, page } = await openPage(browser, server, { lang, width, height: width > 1000 ? 900 : 844, timeZone: '8' });
    // Test hook: a short refresh period, through the server's console settings (they override the config's).
    await page.route('**/supportModule/settings/get*', async (route) => {
      const response = await route.fetch();
      const body = (await response.json().catch(() => null)) as { data?: Record<string, unknown> } | null;
      if (body?.data && typeof body.data === 'object') body.data.warnRefreshSeconds = REFRESH_S;
      await route.fulfill({ response, json: body });
    });
    return { context, page };
  }

  const login = (page: Page, name: string, password: string) => logIn(page, server, name, password);

  it('a fault turns the bell on within a refresh period and the row to warn; acknowledging turns it off; clearing ends the alarm', async () => {
    const vessel = fleet.find((v) => v.owner === 'oceanic')!;
    const index = fleet.indexOf(vessel);
    const { context, page } = await open(1440, 'en');
    await login(page, 'oceanic', 'oceanic123');
    await page.goto(`${server.url}/device/deviceManageData?q=${vessel.deviceNum}`);
    const row = page.getByTestId(`monitor-row-${vessel.id}`);
    await row.waitFor({ timeout: 30_000 });
    expect(await row.getAttribute('data-status')).toBe('1');
    expect(await page.getByTestId('bell-dot').count()).toBe(0);

    expect((await ingest(vessel.deviceNum, vessel.secret, report(index, ['E05']))).code).toBe(0);
    const raisedAt = Date.now();
    await page.getByTestId('bell-dot').waitFor({ timeout: (REFRESH_S * 2 + 3) * 1000 });
    await page.waitForFunction(
      (id) => document.querySelector(`[data-testid="monitor-row-${id}"]`)?.getAttribute('data-status') === '2',
      vessel.id,
      { timeout: (REFRESH_S * 2 + 3) * 1000 },
    );
    const seenWithin = (Date.now() - raisedAt) / 1000;
    expect(seenWithin).toBeLessThan(REFRESH_S * 2 + 3);
    await row.getByTestId('fault-E05').waitFor();
    expect(await row.getByTestId('fault-E05').innerText()).toContain('LNB detection failed');
    await screenshot(page, `monitor-status-warn-en-1440`);

    // The bell opens the monitor filtered to warn.
    await page.getByTestId('bell').click();
    await page.waitForURL((u) => u.searchParams.get('state') === 'warn');
    expect(await page.getByTestId('bell-dot').count()).toBe(0);
    await page.getByTestId(`monitor-row-${vessel.id}`).waitFor({ timeout: 15_000 });
    await page.locator('[data-testid="count-warn"][aria-pressed="true"]').waitFor({ timeout: 10_000 });
    // Only warn rows once the filtered page has arrived.
    await page.waitForFunction(
      () => {
        const rows = [...document.querySelectorAll('[data-testid^="monitor-row-"]')];
        return rows.length > 0 && rows.every((r) => r.getAttribute('data-status') === '2');
      },
      undefined,
      { timeout: 15_000 },
    );
    expect(await page.getByTestId(`monitor-row-${vessel.id}`).count()).toBe(1);

    // The dot comes back at the next poll while the alarm is unacknowledged.
    await page.getByTestId('bell-dot').waitFor({ timeout: (REFRESH_S * 2 + 3) * 1000 });

    // Alarm list: acknowledge it; the dot goes off.
    await page.getByTestId('monitor-tab-alarms').click();
    const alarmRow = page.locator(`[data-testid^="alarm-row-"][data-device="${vessel.id}"][data-code="E05"]`);
    await alarmRow.waitFor({ timeout: 15_000 });
    expect(await alarmRow.innerText()).toContain('Not acknowledged');
    await screenshot(page, `monitor-alarms-en-1440`);
    await alarmRow.locator('[data-testid^="alarm-ack-"]').click();
    await page.waitForFunction(() => !document.querySelector('[data-testid="bell-dot"]'), undefined, {
      timeout: (REFRESH_S * 2 + 3) * 1000,
    });
    await page.waitForFunction(
      (id) => {
        const r = document.querySelector(`[data-testid^="alarm-row-"][data-device="${id}"][data-code="E05"]`);
        return r && !r.textContent?.includes('Not acknowledged');
      },
      vessel.id,
      { timeout: 15_000 },
    );
    expect(await alarmRow.innerText()).toContain('oceanic');
    // Stays off over the next polls.
    await page.waitForTimeout(REFRESH_S * 1000 + 500);
    expect(await page.getByTestId('bell-dot').count()).toBe(0);

    // Clear it (an enterprise may): it leaves the active list.
    await alarmRow.locator('[data-testid^="alarm-clear-"]').click();
    await page.getByTestId('alarms-clear-confirm').click();
    await alarmRow.waitFor({ state: 'detached', timeout: 15_000 });
    await page.getByTestId('alarms-show-cleared').click();
    await alarmRow.waitFor({ timeout: 15_000 });
    await context.close();
  });

  it('the dashboard map draws the demo fleet on its canvas layer and a click opens a vessel card', async () => {
    const { context, page } = await open(1440, 'en');
    await login(page, 'admin', 'admin123');
    await page.goto(`${server.url}/dashboard`);
    await page.getByTestId('fleet-map').waitFor({ timeout: 30_000 });
    const [{ n: positioned }] = (await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_state')) as [{ n: number }];
    const drawn = await page.waitForFunction(
      (n) => {
        const s = window.__fleetMap?.stats;
        return s && s.vessels === n && s.points + s.vesselsInClusters === n ? s : null;
      },
      positioned,
      { timeout: 30_000 },
    );
    const stats = (await drawn.jsonValue()) as { vessels: number; points: number };
    expect(stats.vessels).toBeGreaterThanOrEqual(fleet.length);
    expect(await page.locator('.leaflet-marker-icon').count()).toBe(0);
    expect(await page.locator('canvas.fleet-vessel-layer').count()).toBe(1);

    // Click the first vessel drawn on its own.
    const vessel = fleet[0]!;
    const point = await page.evaluate(
      ([lat, lon]) => {
        const map = window.__fleetMap!.map;
        map.setView([lat!, lon!], 9, { animate: false });
        const p = map.latLngToContainerPoint([lat!, lon!]);
        const box = map.getContainer().getBoundingClientRect();
        return { x: box.left + p.x, y: box.top + p.y };
      },
      [report(0).lat, report(0).lon],
    );
    await page.mouse.click(point.x, point.y);
    const card = page.getByTestId('vessel-popup');
    await card.waitFor({ timeout: 10_000 });
    expect(await card.innerText()).toContain(vessel.name);
    expect(await card.locator(`a[href="/device/deviceDataDetail?id=${vessel.id}"]`).count()).toBe(1);
    await context.close();
  });

  it('screenshots of the dashboard and the status monitor, zh and en, 1440 and 390 wide', async () => {
    const sub = fleet[1]!;
    await ingest(sub.deviceNum, sub.secret, report(1, ['E06', 'E11']));
    for (const lang of ['zh', 'en'] as const) {
      for (const width of [1440, 390]) {
        const { context, page } = await open(width, lang);
        await login(page, 'admin', 'admin123');
        await page.goto(`${server.url}/dashboard`);
        await page.waitForFunction(() => (window.__fleetMap?.stats.vessels ?? 0) > 0, undefined, { timeout: 30_000 });
        await page.getByTestId('dashboard-top-faults').getByText('E06').first().waitFor({ timeout: 15_000 });
        await page.waitForTimeout(600);
        await screenshot(page, `monitor-dashboard-${lang}-${width}`);
        await page.goto(`${server.url}/device/deviceManageData`);
        await page.locator('[data-testid^="monitor-row-"]').first().waitFor({ timeout: 30_000 });
        await screenshot(page, `monitor-status-${lang}-${width}`);
        await page.goto(`${server.url}/device/deviceManageData?tab=alarms`);
        await page.locator('[data-testid^="alarm-row-"]').first().waitFor({ timeout: 30_000 });
        await screenshot(page, `monitor-alarms-${lang}-${width}`);
        expect(await page.locator('body').innerText()).not.toMatch(/\b(ra|console|monitor|validation|error)\.[a-z]+\.[a-zA-Z]/);
        await context.close();
      }
    }
  });
});
