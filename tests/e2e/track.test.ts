import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { skipBrowserTests, logIn, openPage, screenshot, startE2e, stopE2e, type E2eServer, type Lang } from './browser';
import { minutely, seedReports } from '../api/trackFixtures';
import { buildCoverage } from '../../server/modules/vessel';
import { linkKindBits } from '../../src/domain/links';

describe.skipIf(skipBrowserTests)('location track and device location in headless Chromium', () => {
  let server: E2eServer;
  let browser: Browser;
  let ship: number;
  let polarisShip: number;
  beforeAll(async () => {
    ({ server, browser } = await startE2e());
    const vessel = async (owner: string) =>
      (
        await server.db.query<{ id: number }>('SELECT min(d.id) AS id FROM devices d JOIN users u ON u.id = d.owner_id WHERE u.name = $1', [
          owner,
        ])
      )[0]!.id;
    ship = await vessel('oceanic');
    polarisShip = await vessel('polaris');
    // Eight hours sailing south-east, a warning in the middle, an hour offline; and a day five days ago.
    const recent = minutely(480, 2, (i) => ({
      lat: 22 - i * 0.004,
      lon: 114.5 + i * 0.006 + Math.sin(i / 25) * 0.05,
      speed: 12 + (i % 7),
      heading: 135,
      signal: 60 + (i % 30),
      warn: i >= 150 && i < 190,
    })).filter((_, i) => i < 300 || i >= 360);
    await seedReports(server.db, ship, recent);
    await seedReports(
      server.db,
      ship,
      minutely(600, 5 * 1440, (i) => ({ lat: 20 + i * 0.003, lon: 118 - i * 0.004 })),
    );
    await seedReports(
      server.db,
      polarisShip,
      minutely(120, 5, (i) => ({ lat: 1.2, lon: 103.8 + i * 0.01 })),
    );
  });
  afterAll(() => stopE2e(server, browser));

  async function open(
    name: string,
    password: string,
    lang: Lang = 'zh',
    width = 1440,
    height = 900,
  ): Promise<{ context: BrowserContext; page: Page }> {
    const opened = await openPage(browser, server, { lang, width, height });
    await logIn(opened.page, server, name, password);
    return opened;
  }

  const drawnPoints = (page: Page) => page.getByTestId('track-map').getAttribute('data-track-points');

  async function openTrack(page: Page, id: number) {
    await page.goto(`${server.url}/device/map?id=${id}`);
    await page.waitForFunction(() => document.querySelector('[data-testid="track-map"]')?.hasAttribute('data-track-points'), null, {
      timeout: 30_000,
    });
  }

  it('plays the track at 10x: the vessel marker moves and the report at the cursor changes; the window switches', async () => {
    const { context, page } = await open('oceanic', 'oceanic123', 'en');
    await openTrack(page, ship);
    const points3d = Number(await drawnPoints(page));
    expect(points3d).toBeGreaterThan(4);
    const vesselAt = async () =>
      page.locator('[data-testid="track-vessel"]').evaluate((el) => `${el.getAttribute('data-lat')},${el.getAttribute('data-lon')}`);
    const startTime = await page.getByTestId('cursor-time').innerText();
    const startAt = await vesselAt();
    await page.getByRole('combobox', { name: 'Speed' }).click();
    await page.getByTestId('speed-10').click();
    await page.getByTestId('play').click();
    await page.waitForTimeout(2000);
    await page.getByTestId('pause').click();
    expect(await vesselAt()).not.toBe(startAt);
    const later = await page.getByTestId('cursor-time').innerText();
    expect(later).not.toBe(startTime);
    // At 10x two seconds are about twenty minutes of track.
    const minutes = (Date.parse(later.replace(' ', 'T')) - Date.parse(startTime.replace(' ', 'T'))) / 60_000;
    expect(minutes).toBeGreaterThan(5);
    expect(minutes).toBeLessThan(60);
    await screenshot(page, 'track-en-1440');

    await page.getByTestId('window-1w').click();
    await page.waitForFunction(
      (before) => document.querySelector('[data-testid="track-map"]')?.getAttribute('data-track-points') !== before,
      String(points3d),
      { timeout: 30_000 },
    );
    expect(Number(await drawnPoints(page))).toBeGreaterThan(points3d);
    expect(await page.getByTestId('track-summary').innerText()).toMatch(/1020/);
    await context.close();
  });

  it('shows the locked-feature notice when track history is locked for the enterprise', async () => {
    const api = async (path: string, token: string, method = 'GET') =>
      (await fetch(`${server.api}${path}${path.includes('?') ? '&' : '?'}token=${token}`, { method })).json();
    const login = await (
      await fetch(`${server.api}/users/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'name=admin&password=admin123',
      })
    ).json();
    const admin = login.data.token as string;
    const polaris = (await server.db.query<{ id: number }>("SELECT id FROM users WHERE name = 'polaris'"))[0]!.id;
    const grants = await api(`/deviceModule/deviceAuth/getAll?enterpriseId=${polaris}&feature=trackHistory`, admin);
    for (const g of grants.data.list) expect((await api(`/deviceModule/deviceAuth/deleteById?id=${g.id}`, admin, 'DELETE')).code).toBe(0);

    for (const lang of ['zh', 'en'] as const) {
      const { context, page } = await open('polaris', 'polaris123', lang);
      await page.goto(`${server.url}/device/map?id=${polarisShip}`);
      const notice = page.getByTestId('feature-locked');
      await notice.waitFor({ timeout: 30_000 });
      expect(await notice.innerText()).toContain(
        lang === 'zh' ? '请联系您的服务商解锁此功能' : 'contact your service provider to unlock it',
      );
      await screenshot(page, `track-locked-${lang}`);
      await page.goto(`${server.url}/device/deviceLocation?id=${polarisShip}`);
      await page.getByTestId('feature-locked').waitFor({ timeout: 30_000 });
      await context.close();
    }
  });

  it('the coverage map draws the whole fleet’s cells to a sub-user, for all satellites, one, or a link kind', async () => {
    // The Polaris vessel tracks another satellite: choosing it leaves its cells alone. It is a vBox
    // with LEO (down) and 4G (up near Singapore).
    const bits = linkKindBits([
      { kind: 'leo', state: 'down' },
      { kind: 'cellular', state: 'up' },
    ])!;
    await server.db.query(`UPDATE device_reports SET satellite_name = 'APSTAR 6D', link_kinds = $2, links_up = $3 WHERE device_id = $1`, [
      polarisShip,
      bits.kinds,
      bits.up,
    ]);
    await buildCoverage(server.db, { settleS: 0 });
    const cells = async (kind: string, satellite: string | null = null) =>
      (
        await server.db.query<{ n: number }>(
          `SELECT count(DISTINCT cell)::int AS n FROM coverage_daily
            WHERE res = 2 AND day >= current_date - 29 AND kind = $2 AND ($1::text IS NULL OR satellite = $1)`,
          [satellite, kind],
        )
      )[0]!.n;
    const [first] = await server.db.query<{ satellite: string }>(
      "SELECT min(satellite) AS satellite FROM coverage_daily WHERE kind = 'geo'",
    );
    const all = await cells('geo');
    // The Polaris vessel's cells near Singapore are among them: the map describes the sky, not a customer.
    expect(first!.satellite).toBe('APSTAR 6D');
    expect(await cells('geo', 'APSTAR 6D')).toBeLessThan(all);
    // Its 4G link: a layer of its own.
    const cellular = await cells('cellular');
    expect(cellular).toBeGreaterThan(0);
    const { context, page } = await open('oceanops', 'oceanops123', 'en', 390, 844);
    try {
      await page.goto(`${server.url}/device/coverage`);
      const drawn = page.locator('[data-cells]');
      await expect.poll(() => drawn.getAttribute('data-cells'), { timeout: 15_000 }).toBe(String(all));
      await expect.poll(() => page.getByTestId('coverage-summary').innerText()).toMatch(/cells from [\d,]+ reports/);
      await page.getByRole('combobox', { name: 'Layer' }).click();
      await page.getByRole('option', { name: first!.satellite, exact: true }).click();
      await expect.poll(() => drawn.getAttribute('data-cells'), { timeout: 15_000 }).toBe(String(await cells('geo', first!.satellite)));
      await screenshot(page, 'coverage-en-390');
      await page.getByRole('combobox', { name: 'Layer' }).click();
      await page.getByRole('option', { name: '4G/5G', exact: true }).click();
      await expect.poll(() => drawn.getAttribute('data-cells'), { timeout: 15_000 }).toBe(String(cellular));
      // The legend follows the answer, not the choice: the satellite's layer (kept while the next one
      // loads) can have as many cells as the 4G one, so wait for the 4G answer's legend too.
      await expect.poll(() => page.getByTestId('coverage-legend').innerText(), { timeout: 15_000 }).toContain('Link available');
      expect(await drawn.getAttribute('data-cells')).toBe(String(cellular));
      await screenshot(page, 'coverage-4g-en-390');
    } finally {
      await context.close();
    }
  });

  it('takes screenshots of both pages in both languages (the track page also at 390)', async () => {
    for (const lang of ['zh', 'en'] as const) {
      for (const width of [1440, 390]) {
        const { context, page } = await open('oceanic', 'oceanic123', lang, width, width === 390 ? 844 : 900);
        await openTrack(page, ship);
        await page.waitForTimeout(500);
        await screenshot(page, `track-${lang}-${width}`);
        if (width === 1440) {
          await page.goto(`${server.url}/device/deviceLocation?id=${ship}`);
          await page.waitForFunction(
            () => document.querySelector('[data-testid="location-map"]')?.hasAttribute('data-location-points'),
            null,
            { timeout: 30_000 },
          );
          await page.getByTestId('position-longitude').fill('181');
          await page.getByTestId('position-latitude').fill('22.5');
          const error = page.getByText(
            lang === 'zh'
              ? '经度必须是 0 到 180 之间的数字，最多两位小数'
              : 'Longitude must be a number from 0 to 180 with at most two decimals',
          );
          await error.waitFor({ timeout: 10_000 });
          await page.getByTestId('position-longitude').fill('114.25');
          await error.waitFor({ state: 'detached', timeout: 10_000 });
          await page.getByTestId('location-month').click();
          await page.waitForTimeout(800);
          await screenshot(page, `location-${lang}-1440`);
        }
        await context.close();
      }
    }
  });
});
