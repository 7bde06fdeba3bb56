import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { skipBrowserTests, logIn, openPage, startE2e, stopE2e, type E2eServer } from './browser';
import { issueDemoSecrets } from '../../server/simulator/demoDevices';

/**
 * Live push in headless Chromium (docs/architecture.md, "Live push"): with the bell's poll set far out, a fault
 * reported by a vessel still turns the bell on, because the live stream refetches it; with the
 * stream blocked (a proxy that refuses it), the console falls back to the bell's poll.
 */
describe.skipIf(skipBrowserTests)('live push in headless Chromium', () => {
  let server: E2eServer;
  let browser: Browser;
  let fleet: { deviceNum: string; secret: string; id: number; owner: string }[] = [];

  const ingest = (deviceNum: string, secret: string, body: unknown) =>
    fetch(`${server.api}/deviceModule/ingest/report?lang=en`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-device-num': deviceNum, 'x-device-secret': secret },
      body: JSON.stringify(body),
    }).then((r) => r.json() as Promise<{ code: number; data: unknown }>);
  const report = (faults: string[] = [], at = new Date()) => ({
    deviceTime: at.toISOString(),
    lat: 10,
    lon: 115,
    speed: 12,
    heading: 40,
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
    const secrets = await issueDemoSecrets(server.db);
    const owners = await server.db.query<{ num: string; id: number; owner: string }>(
      `SELECT d.device_num AS num, d.id, u.name AS owner FROM devices d JOIN users u ON u.id = d.owner_id WHERE d.device_num = ANY($1::text[])`,
      [secrets.map((s) => s.deviceNum)],
    );
    fleet = secrets.map((s) => ({ ...s, ...owners.find((o) => o.num === s.deviceNum)! }));
    // Every vessel reports cleanly first and no alarm is left unacknowledged: the bell starts off.
    for (const v of fleet) expect((await ingest(v.deviceNum, v.secret, report([], new Date(Date.now() - 60_000)))).code).toBe(0);
    await server.db.query('UPDATE alarms SET acked_at = now() WHERE acked_at IS NULL');
  });
  afterAll(() => stopE2e(server, browser));

  /** A console whose bell polls every `seconds` (through the server's console settings); `blockStream` refuses the live stream. */
  async function open(seconds: number, { blockStream = false } = {}): Promise<{ context: BrowserContext; page: Page }> {
    const { context, page } = await openPage(browser, server, { lang: 'en', width: 1440, height: 900 });
    await page.route('**/supportModule/settings/get*', async (route) => {
      const response = await route.fetch();
      const body = (await response.json().catch(() => null)) as { data?: Record<string, unknown> } | null;
      if (body?.data && typeof body.data === 'object') body.data.warnRefreshSeconds = seconds;
      await route.fulfill({ response, json: body });
    });
    if (blockStream) await page.route('**/live/events*', (route) => route.fulfill({ status: 502, body: 'Bad Gateway' }));
    return { context, page };
  }

  it('turns the bell dot on from the live stream without waiting for the poll (set to 10 minutes)', async () => {
    const vessels = fleet.filter((v) => v.owner === 'oceanic');
    const vessel = vessels[0]!;
    const { context, page } = await open(600);
    await logIn(page, server, 'oceanic', 'oceanic123');
    // The stream is up: the quiet indicator beside the bell, named in the page's language.
    const indicator = page.getByTestId('live-indicator');
    await indicator.waitFor({ timeout: 30_000 });
    expect(await indicator.getAttribute('aria-label')).toBe('Live updates on: alarms and state changes show at once');
    await page.getByTestId('bell').waitFor();
    expect(await page.getByTestId('bell-dot').count()).toBe(0);
    expect((await ingest(vessel.deviceNum, vessel.secret, report(['E05']))).code).toBe(0);
    // Far inside the 600 s poll: only the push can have refetched the bell.
    await page.getByTestId('bell-dot').waitFor({ timeout: 15_000 });
    await context.close();
    await server.db.query('UPDATE alarms SET acked_at = now() WHERE acked_at IS NULL');
  }, 90_000);

  it('falls back to polling at the configured interval when the stream is refused', async () => {
    const vessel = fleet.filter((v) => v.owner === 'oceanic')[1]!;
    const { context, page } = await open(2, { blockStream: true });
    await logIn(page, server, 'oceanic', 'oceanic123');
    await page.getByTestId('bell').waitFor({ timeout: 30_000 });
    await page.waitForTimeout(500);
    expect(await page.getByTestId('bell-dot').count()).toBe(0);
    expect((await ingest(vessel.deviceNum, vessel.secret, report(['E08']))).code).toBe(0);
    await page.getByTestId('bell-dot').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('live-indicator').count()).toBe(0);
    await context.close();
  }, 90_000);
});
