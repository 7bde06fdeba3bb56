import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { translateDomain } from '../../src/domain/messages';
import { hashDeviceSecret } from '../../server/auth/deviceCredentials';
import { skipBrowserTests, logIn, openPage, screenshot, startE2e, stopE2e, type E2eServer, type Lang } from './browser';

const SECRET = 'e2e-detail-secret-0123456789';
const HOUR = 3_600_000;

/** The vessel detail, statistics, voyage and camera pages in headless Chromium. */
describe.skipIf(skipBrowserTests)('vessel detail pages in headless Chromium', () => {
  let server: E2eServer;
  let browser: Browser;
  let vessel: { id: number; num: string };
  let lockedVessel: number;
  beforeAll(async () => {
    ({ server, browser } = await startE2e());
    const [row] = await server.db.query<{ id: number; num: string }>(
      `SELECT d.id, d.device_num AS num FROM devices d JOIN users u ON u.id = d.owner_id WHERE u.name = 'oceanic' AND d.activated ORDER BY d.id LIMIT 1`,
    );
    vessel = row!;
    await server.db.query('UPDATE devices SET secret_hash = $2 WHERE id = $1', [vessel.id, hashDeviceSecret(SECRET)]);
    const [polaris] = await server.db.query<{ id: number }>(
      `SELECT d.id FROM devices d JOIN users u ON u.id = d.owner_id WHERE u.name = 'polaris' ORDER BY d.id DESC LIMIT 1`,
    );
    lockedVessel = polaris!.id;
    // 7 days of reports every 10 minutes through the ingest endpoint: a 2-hour gap, a fault hour.
    const now = Date.now();
    const times: number[] = [];
    for (let t = now - 60_000; t > now - 7 * 24 * HOUR; t -= 10 * 60_000) if (t < now - 5 * HOUR || t > now - 3 * HOUR) times.push(t);
    times.reverse();
    for (let i = 0; i < times.length; i += 500) {
      const reports = times.slice(i, i + 500).map((t, j) => ({
        deviceTime: new Date(t).toISOString(),
        lat: 10 + (i + j) / 200,
        lon: 110 + (i + j) / 150,
        speed: 8 + 4 * Math.sin((i + j) / 20),
        heading: 45,
        azimuth: 180 + 20 * Math.sin((i + j) / 30),
        elevation: 40 + 5 * Math.cos((i + j) / 25),
        skew: -10 + 3 * Math.sin((i + j) / 15),
        satellite: { name: 'AsiaSat 7', longitude: 105.5 },
        signalLevel: 60 + 15 * Math.sin((i + j) / 10),
        snr: 10 + 3 * Math.cos((i + j) / 12),
        modemLock: true,
        txOn: true,
        lteSignal: -85,
        faults: t > now - 9 * HOUR && t < now - 8 * HOUR ? ['E05'] : [],
        firmware: { adu: 'V2.1.3', bdu: 'V1.0.9' },
      }));
      const res = await fetch(`${server.api}/deviceModule/ingest/report`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-device-num': vessel.num, 'x-device-secret': SECRET },
        body: JSON.stringify({ reports }),
      });
      expect((await res.json()).code).toBe(0);
    }
  });
  afterAll(() => stopE2e(server, browser));

  const open = (lang: Lang, width = 1440, height = 900) => openPage(browser, server, { lang, width, height, timeZone: '8' });
  const login = (page: Page, name: string, password: string) => logIn(page, server, name, password);
  const rawKeys = /\b(vessel|validation|error|deviceField|console)\.[a-zA-Z]+(\.[a-zA-Z0-9]+)?\b/;

  it('opens the detail charts for each data window (6 h, 12 h, 24 h, 7 d), in zh and en', async () => {
    for (const lang of ['en', 'zh'] as const) {
      const { context, page } = await open(lang);
      await login(page, 'oceanic', 'oceanic123');
      await page.goto(`${server.url}/device/deviceDataDetail?id=${vessel.id}`);
      await page.getByTestId('detail-name').waitFor({ timeout: 30_000 });
      await page.getByTestId('report-fields').getByText('AsiaSat 7').waitFor();
      for (const window of ['6h', '12h', '24h', '7d']) {
        await page.getByTestId(`window-${window}`).click();
        await page.locator(`[data-testid="detail-charts"][data-window="${window}"][data-loaded="true"]`).waitFor({ timeout: 30_000 });
        for (const chart of ['signal', 'pointing', 'speedChart']) {
          expect(await page.getByTestId(`chart-${chart}`).locator('svg path').count(), `${window} ${chart}`).toBeGreaterThan(0);
        }
        expect(await page.locator('[data-testid="state-bands"] [data-state="offline"]').count()).toBeGreaterThan(0);
        const faults = await page.getByTestId('window-faults').innerText();
        if (window === '6h') expect(faults).not.toContain('E05');
        if (window === '12h' || window === '7d') expect(faults).toContain('E05');
      }
      await page.getByTestId('window-12h').click();
      await page.locator('[data-testid="detail-charts"][data-window="12h"][data-loaded="true"]').waitFor();
      expect(await page.getByTestId('window-faults').innerText()).toContain(lang === 'en' ? 'LNB detection failed' : 'LNB检测失败');
      expect(await page.locator('body').innerText()).not.toMatch(rawKeys);
      for (const link of ['track', 'statistics', 'camera', 'location'])
        expect(await page.getByTestId(`link-${link}`).getAttribute('href')).toContain(`?id=${vessel.id}`);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.getByTestId('detail-name').scrollIntoViewIfNeeded();
      await screenshot(page, `detail-${lang}`);
      await page.getByTestId('chart-signal').scrollIntoViewIfNeeded();
      await screenshot(page, `detail-charts-${lang}`);
      await context.close();
    }
    const { context, page } = await open('en', 390, 844);
    await login(page, 'oceanic', 'oceanic123');
    await page.goto(`${server.url}/device/deviceDataDetail?id=${vessel.id}`);
    await page.locator('[data-testid="detail-charts"][data-loaded="true"]').waitFor({ timeout: 30_000 });
    await screenshot(page, 'detail-en-390');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.getByTestId('chart-signal').scrollIntoViewIfNeeded();
    await screenshot(page, 'detail-charts-en-390');
    await context.close();
  });

  it('shows time statistics with MM-DD dates for a vessel and the fleet', async () => {
    for (const lang of ['en', 'zh'] as const) {
      const { context, page } = await open(lang);
      await login(page, 'oceanic', 'oceanic123');
      await page.goto(`${server.url}/device/timeStatistics?id=${vessel.id}`);
      await page.getByTestId('statistics-table').waitFor({ timeout: 30_000 });
      await page.getByTestId('days-10').click();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="statistics-date"]').length === 10, null, {
        timeout: 15_000,
      });
      const dates = await page.getByTestId('statistics-date').allInnerTexts();
      expect(dates).toHaveLength(10);
      for (const d of dates) expect(d).toMatch(/^\d{2}-\d{2}$/);
      // The last row is today at UTC+8 (the time-zone cookie).
      expect(dates[9]).toBe(new Date(Date.now() + 8 * HOUR).toISOString().slice(5, 10));
      await page.getByTestId('statistics-chart').locator('svg').first().waitFor();
      await screenshot(page, `statistics-${lang}`);
      await page.getByTestId('tab-fleet').click();
      await page.getByTestId('fleet-row').first().waitFor({ timeout: 15_000 });
      expect(await page.getByTestId('fleet-row').first().innerText()).toContain('%');
      await screenshot(page, `statistics-fleet-${lang}`);
      expect(await page.locator('body').innerText()).not.toMatch(rawKeys);
      await context.close();
    }
  });

  it('refuses a voyage whose eta is before its etd with the message in zh and en, then saves it', async () => {
    for (const [owner, name] of [
      ['oceanic', 'Oceanic Yard'],
      ['polaris', 'Polaris Yard'],
    ])
      await server.db.query(
        `INSERT INTO geofences (owner_id, name, kind, shape, lat, lon, radius_m, created_by)
         SELECT id, $2, 'port', 'circle', -60, -120, 5000, id FROM users WHERE name = $1 ON CONFLICT DO NOTHING`,
        [owner, name],
      );
    /** The voyage form opened on the vessel as `name`, and the destinations it offers. */
    const voyageForm = async (lang: Lang, name: string, password: string) => {
      const { context, page } = await open(lang);
      await login(page, name, password);
      await page.goto(`${server.url}/device/deviceDataDetail?id=${vessel.id}`);
      await page.getByTestId('voyage-add').click();
      const offered = () =>
        page.locator('#voyage-destination-ports option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
      await expect.poll(offered, { timeout: 10_000 }).toContain('Oceanic Yard');
      return { context, page, offered };
    };
    for (const lang of ['en', 'zh'] as const) {
      // The destination offers the enterprise's port geofences, then the product's ports in the user's language; never another enterprise's.
      const { context, page, offered } = await voyageForm(lang, 'oceanic', 'oceanic123');
      expect(await offered()).toContain(lang === 'en' ? 'Singapore' : '新加坡');
      expect(await offered()).not.toContain('Polaris Yard');
      expect(await page.getByTestId('voyage-destination').getAttribute('list')).toBe('voyage-destination-ports');
      await page.getByTestId('voyage-voyageNo').fill(`E2E-${lang}`);
      await page.getByTestId('voyage-destination').fill('Singapore');
      await page.getByTestId('voyage-agent').fill('Harbour Agency');
      await page.getByTestId('voyage-etd').fill('2030-05-10T08:00');
      await page.getByTestId('voyage-eta').fill('2030-05-09T08:00');
      const message = translateDomain(lang, 'validation.etaBeforeEtd');
      await page.getByText(message).waitFor({ timeout: 10_000 });
      await page.getByTestId('voyage-email').fill('not-an-email');
      await page.getByText(translateDomain(lang, 'validation.email')).waitFor();
      await screenshot(page, `voyage-form-${lang}`);
      await page.getByTestId('voyage-save').click();
      expect(await page.getByText(message).count()).toBe(1);
      await page.getByTestId('voyage-email').fill('ops@example.com');
      await page.getByTestId('voyage-eta').fill('2030-05-20T08:00');
      await page.getByText(message).waitFor({ state: 'detached' });
      await page.getByTestId('voyage-save').click();
      await page.getByTestId('voyage-form').waitFor({ state: 'detached', timeout: 15_000 });
      await page.getByTestId('voyage-history').getByText(`E2E-${lang}`).waitFor({ timeout: 15_000 });
      // Editing starts from the stored values, ETA shown back in the selected zone.
      await page
        .getByTestId('voyage-history')
        .getByRole('row')
        .filter({ hasText: `E2E-${lang}` })
        .getByTestId('voyage-edit')
        .click();
      expect(await page.getByTestId('voyage-voyageNo').inputValue()).toBe(`E2E-${lang}`);
      expect(await page.getByTestId('voyage-eta').inputValue()).toBe('2030-05-20T08:00');
      await page.getByRole('button', { name: lang === 'en' ? 'Cancel' : '取消' }).click();
      await context.close();
    }
    const [saved] = await server.db.query<{ eta: Date }>(`SELECT eta FROM voyages WHERE voyage_no = 'E2E-en'`);
    // 08:00 at UTC+8 is midnight UTC.
    expect(saved!.eta.toISOString()).toBe('2030-05-20T00:00:00.000Z');
    // Level 1 sees every enterprise's geofences: the form still offers only the vessel's enterprise's ports.
    const asAdmin = await voyageForm('en', 'admin', 'admin123');
    expect(await asAdmin.offered()).not.toContain('Polaris Yard');
    await asAdmin.context.close();
    await server.db.query(`DELETE FROM geofences WHERE name IN ('Oceanic Yard', 'Polaris Yard')`);
  });

  it('lists cameras of an unlocked vessel and shows the locked message on a locked one', async () => {
    await server.db.query(
      `INSERT INTO cameras (device_id, name, link, description) VALUES
      ($1, 'Bridge', 'https://cams.example.com/live/bridge.m3u8', 'Forward view'),
      ($1, 'Engine room', 'http://10.0.0.8/video.mjpg', 'MJPEG encoder'),
      ($1, 'NVR', 'https://nvr.example.com/view?cam=3', NULL)`,
      [vessel.id],
    );
    for (const lang of ['en', 'zh'] as const) {
      const { context, page } = await open(lang);
      await login(page, 'oceanic', 'oceanic123');
      await page.goto(`${server.url}/device/cameraInfo?id=${vessel.id}`);
      await page.getByTestId('camera-table').getByText('Engine room').waitFor({ timeout: 30_000 });
      await page.getByTestId('camera-open').nth(0).click();
      await page.locator('[data-testid="stream-player"][data-kind="hls"] video').waitFor();
      await screenshot(page, `camera-${lang}`);
      await page.getByTestId('camera-edit').nth(1).click();
      expect(await page.getByTestId('camera-name').inputValue()).toBe('Engine room');
      expect(await page.getByTestId('camera-link').inputValue()).toBe('http://10.0.0.8/video.mjpg');
      await page.getByRole('button', { name: lang === 'en' ? 'Cancel' : '取消' }).click();
      await page.getByTestId('camera-form').waitFor({ state: 'detached' });
      await page.getByTestId('camera-add').click();
      await page.getByTestId('camera-name').fill('Mast');
      await page.getByTestId('camera-link').fill('rtsp://10.0.0.9/stream');
      await page.getByText(translateDomain(lang, 'validation.streamLink')).waitFor({ timeout: 10_000 });
      await screenshot(page, `camera-form-${lang}`);
      await context.close();

      const locked = await open(lang);
      await login(locked.page, 'polaris', 'polaris123');
      await locked.page.goto(`${server.url}/device/cameraInfo?id=${lockedVessel}`);
      const notice = locked.page.getByTestId('feature-locked');
      await notice.waitFor({ timeout: 30_000 });
      expect(await notice.innerText()).toContain(translateDomain(lang, 'error.featureLocked'));
      expect(await locked.page.getByTestId('camera-table').count()).toBe(0);
      await screenshot(locked.page, `camera-locked-${lang}`);
      await locked.context.close();
    }
  });
});
