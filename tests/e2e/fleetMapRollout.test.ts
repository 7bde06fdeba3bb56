import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { skipBrowserTests, logIn, openPage, screenshot, startE2e, stopE2e, type E2eServer, type Lang } from './browser';
import { issueDemoSecrets } from '../../server/simulator/demoDevices';

/**
 * The first day with the console: the fleet map names vessels, finds one by MMSI and centres on
 * it, and tells apart vessels on one spot; a firmware rollout offers a customer's package to that
 * customer's devices only and asks before a downgrade.
 */
describe.skipIf(skipBrowserTests)('the fleet map and the firmware rollout on the first day', () => {
  let server: E2eServer;
  let browser: Browser;
  beforeAll(async () => {
    ({ server, browser } = await startE2e());
    // Every demo vessel reports a position once (the tests run without the demo's history).
    const secrets = await issueDemoSecrets(server.db);
    for (const [i, v] of secrets.entries()) {
      const res = await fetch(`${server.api}/deviceModule/ingest/report?lang=en`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-device-num': v.deviceNum, 'x-device-secret': v.secret },
        body: JSON.stringify({
          deviceTime: new Date(Date.now() - 30_000).toISOString(),
          lat: 5 + (i % 10) * 1.5,
          lon: 110 + Math.floor(i / 10) * 2.5,
          speed: 12,
          heading: (i * 40) % 360,
          azimuth: 180,
          elevation: 45,
          skew: 0,
          satellite: { name: 'AsiaSat 7', longitude: 105.5 },
          signalLevel: 70,
          snr: 11,
          modemLock: true,
          txOn: true,
          faults: [],
        }),
      }).then((r) => r.json() as Promise<{ code: number }>);
      expect(res.code).toBe(0);
    }
    // Reports are written in batches: wait until every position is stored before moving any.
    const stored = async () =>
      (await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_state WHERE lat IS NOT NULL'))[0]!.n;
    for (let waited = 0; (await stored()) < secrets.length && waited < 15_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
    // Polaris's antenna package, as the demo has it (V1.2.5, older than every antenna's ADU V2.x).
    await server.db.query(
      `INSERT INTO firmware_packages (device_type, customer, model, version, version_type, enabled, file_name, file_size, sha256, storage_key, uploaded_by)
       SELECT 'Ku-band VSAT antenna', 'Polaris Marine Ltd.', 'SA-100K', 'V1.2.5', 'release', true, 'SA-100K-V1.2.5.bin', 1, repeat('0', 64), 'e2e-none', id
         FROM users WHERE name = 'admin'`,
    );
  });
  afterAll(() => stopE2e(server, browser));

  const stats = (page: Page) =>
    page.evaluate(() => {
      const s = window.__fleetMap!.stats;
      const c = window.__fleetMap!.map.getCenter();
      return { ...s, zoom: window.__fleetMap!.map.getZoom(), lat: c.lat, lng: c.lng };
    });

  it.each(['zh', 'en'] as const)('finds a vessel by MMSI, names vessels and lists those on one spot (%s)', async (lang: Lang) => {
    // Two of Oceanic's vessels on one spot, a third with an MMSI to look for.
    const vessels = await server.db.query<{ id: number; name: string; mmsi: string; lat: number; lon: number }>(
      `SELECT d.id, d.name, d.mmsi, s.lat, s.lon FROM devices d JOIN users u ON u.id = d.owner_id JOIN device_state s ON s.device_id = d.id
        WHERE u.name = 'oceanic' AND s.lat IS NOT NULL AND d.mmsi IS NOT NULL ORDER BY d.id LIMIT 3`,
    );
    const [a, b, wanted] = vessels;
    await server.db.query('UPDATE device_state SET lat = $2, lon = $3 WHERE device_id = $1', [b!.id, a!.lat, a!.lon]);

    const { context, page } = await openPage(browser, server, { lang, width: 1440, height: 900 });
    await logIn(page, server, 'oceanic', 'oceanic123');
    await page.waitForFunction(() => (window.__fleetMap?.stats.vessels ?? 0) > 0, undefined, { timeout: 30_000 });

    // The search: part of the MMSI lists the vessel with its MMSI and state; choosing it centres the map and opens its card.
    await page.getByTestId('fleet-search').fill(wanted!.mmsi.slice(2, 8));
    const option = page.getByTestId(`fleet-search-option-${wanted!.id}`);
    await expect.poll(async () => option.textContent()).toContain(`MMSI ${wanted!.mmsi}`);
    await option.click();
    await expect.poll(async () => page.getByTestId('vessel-popup').textContent()).toContain(wanted!.name);
    await expect.poll(async () => (await stats(page)).zoom).toBeGreaterThanOrEqual(9);
    const found = await stats(page);
    expect(found.lat).toBeCloseTo(wanted!.lat, 3);
    expect(found.lng).toBeCloseTo(wanted!.lon, 3);
    // Zoomed in, the vessels are named.
    expect(found.labels).toBeGreaterThan(0);

    // The shared spot: its vessels are drawn apart, and a click on the spot lists them; one opens its card.
    // (Set again until it holds: a zoom animation still running would undo it.)
    await expect
      .poll(async () => {
        await page.evaluate(([lat, lon]) => window.__fleetMap!.map.setView([lat!, lon!], 5, { animate: false }), [a!.lat, a!.lon]);
        return (await stats(page)).spread;
      })
      .toBeGreaterThanOrEqual(2);
    const box = (await page.getByTestId('fleet-map').boundingBox())!;
    const at = await page.evaluate(([lat, lon]) => window.__fleetMap!.map.latLngToContainerPoint([lat!, lon!]), [a!.lat, a!.lon]);
    await page.mouse.click(box.x + at.x, box.y + at.y);
    const list = page.getByTestId('vessel-list');
    await expect.poll(async () => list.textContent()).toContain(a!.name);
    expect(await list.textContent()).toContain(b!.name);
    expect(await list.textContent()).toContain(lang === 'zh' ? '此位置有 2 艘船舶' : '2 vessels at this position');
    await screenshot(page, `fleet-map-same-spot-${lang}`);
    await page.getByTestId(`vessel-list-item-${b!.id}`).click();
    await expect.poll(async () => page.getByTestId('vessel-popup').textContent()).toContain(b!.name);
    await context.close();
  });

  it('offers a customer package to its customer only and starts a downgrade only once confirmed (en)', async () => {
    const [pkg] = await server.db.query<{ id: number }>("SELECT id FROM firmware_packages WHERE model = 'SA-100K' AND version = 'V1.2.5'");
    const { context, page } = await openPage(browser, server, { lang: 'en', width: 1440, height: 900 });
    await logIn(page, server, 'admin', 'admin123', `/system/firmware/${pkg!.id}`);
    await page.getByTestId('fw-new-rollout').click();
    const dialog = page.getByTestId('fw-rollout-dialog');
    await dialog.locator('[data-testid^="fw-candidate-"]').first().waitFor({ timeout: 15_000 });
    // Only Polaris's antennas: the package is Polaris Marine Ltd.'s.
    const owners = await dialog.locator('[data-testid^="fw-candidate-"] td:nth-child(4)').allTextContents();
    expect(owners.length).toBeGreaterThan(0);
    expect(new Set(owners)).toEqual(new Set(['polaris']));
    // V1.2.5 is older than every antenna's ADU V2.x: ticking one warns, and Start waits for the confirmation.
    const row = dialog
      .locator('[data-testid^="fw-candidate-"]:has([data-testid^="fw-downgrade-"]):has(input[type=checkbox]:not([disabled]))')
      .first();
    const deviceId = Number((await row.getAttribute('data-testid'))!.replace('fw-candidate-', ''));
    await row.locator('input[type=checkbox]').check();
    await expect.poll(async () => page.getByTestId('fw-downgrade-warning').textContent()).toContain('runs a newer version than V1.2.5');
    expect(await page.getByTestId('fw-rollout-start').isDisabled()).toBe(true);
    await page.getByTestId('fw-confirm-downgrade').check();
    await page.getByTestId('fw-rollout-start').click();
    await dialog.waitFor({ state: 'hidden', timeout: 15_000 });
    const started = await server.db.query(
      'SELECT 1 FROM firmware_rollout_targets t JOIN firmware_rollouts r ON r.id = t.rollout_id WHERE r.firmware_id = $1 AND t.device_id = $2',
      [pkg!.id, deviceId],
    );
    expect(started).toHaveLength(1);
    await context.close();
  });
});
