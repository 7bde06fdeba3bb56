import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, engines, type TestServer } from './helpers';
import { reportingDevice } from './monitoringFixtures';
import { ingestAt } from './vesselFixtures';
import { dailyStatistics, fleetStatistics, statisticsWindow } from '../../server/modules/vessel/statisticsQueries';
import type { Principal } from '../../src/domain/levels';
import { rawBandPoints, rollupBandPoints } from '../../server/modules/vessel/bandPointQueries';
import { stateBands } from '../../server/modules/vessel/stateBands';
import { mulberry32 } from '../../server/simulator/prng';
import { alignOf, buildReportSpans, sealDailyRollups, sealedUntilMs } from '../../server/modules/monitoring';
import { rollupFigures } from '../../server/reports/reportQueries';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const admin: Principal = { id: 1, permissionLevel: '1', parentId: null };

/** Irregular report times over the last 16 days: short gaps, gaps over a minute, long silences. */
function irregularTimes(random: () => number, now: number): number[] {
  const times: number[] = [];
  for (let t = now - 16 * DAY + Math.floor(random() * HOUR); t < now - MIN;) {
    times.push(t);
    const r = random();
    t +=
      r < 0.35
        ? 5_000 + Math.floor(random() * 55_000)
        : r < 0.85
          ? 60_001 + Math.floor(random() * 840_000)
          : 1_000_000 + Math.floor(random() * 30_000_000);
  }
  return times;
}

/** Consecutive runs of `size`, in a shuffled order (reports arriving late, out of order). */
function shuffledRuns<T>(random: () => number, items: readonly T[], size: number): T[][] {
  const runs: T[][] = [];
  for (let i = 0; i < items.length; i += size) runs.push(items.slice(i, i + size));
  for (let i = runs.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [runs[i], runs[j]] = [runs[j]!, runs[i]!];
  }
  return runs;
}

describe.each(engines)('hourly report rollups on %s', (engine) => {
  let s: TestServer;
  const vessels: { id: number; num: string }[] = [];
  const now = Date.now();
  /** A window end 17 minutes into an hour 3.5 days ago. */
  const pastEnd = Math.floor((now - 3.5 * DAY) / HOUR) * HOUR + 17 * MIN + 3_456;
  beforeAll(async () => {
    s = await createTestServer(engine);
    const random = mulberry32(14);
    for (let n = 0; n < 4; n += 1) vessels.push(await reportingDevice(s.db, 'oceanic', n));
    for (const [n, vessel] of vessels.entries()) {
      const times = irregularTimes(random, now);
      const warnAt = (t: number) => Math.floor(t / (3 * HOUR)) % 4 === n % 4 || (t / 1000) % 7 === 0;
      const overrides = (t: number) => ({
        faults: warnAt(t) && t % 2 === 0 ? ['E05'] : [],
        modemLock: !(warnAt(t) && t % 2 === 1),
        signalLevel: 40 + (t % 50),
      });
      // Vessel 0 in time order; the others in runs of 1 to 40 reports in a shuffled order.
      const runs = n === 0 ? [times] : shuffledRuns(random, times, 1 + Math.floor(random() * 40));
      for (const run of runs) await ingestAt(s, vessel.num, run, overrides);
    }
    // A report inside an hour that already has later ones, and reports dated ahead of the server's
    // clock (written directly: the ingest refuses more than 5 minutes ahead).
    await ingestAt(s, vessels[0]!.num, [now - 5 * DAY + 17_123]);
    await s.db.query(
      `INSERT INTO device_reports (device_id, device_time, received_at, lat, lon, speed, heading, azimuth, elevation, skew, satellite_name,
              satellite_longitude, signal_level, snr, modem_lock, tx_on, faults)
       SELECT $1, t, now(), 0, 0, 1, 0, 0, 0, 0, 'x', 0, 50, 10, true, true, '{}' FROM unnest($2::timestamptz[]) AS t`,
      [vessels[1]!.id, [new Date(now + 2 * MIN), new Date(now + 90 * MIN)]],
    );
    // Reports either side of the past window end below, within its hour.
    await ingestAt(s, vessels[3]!.num, [pastEnd - 12 * MIN + 7, pastEnd + 20 * MIN + 11]);
    // Thresholds: the default 10 minutes, 1 minute, 50 hours, and an enterprise's 30 minutes.
    await s.db.query('INSERT INTO device_offline_thresholds (device_id, offline_minutes) VALUES ($1, 1), ($2, 3000)', [
      vessels[1]!.id,
      vessels[2]!.id,
    ]);
    await s.db.query(
      `INSERT INTO enterprise_offline_thresholds (enterprise_id, offline_minutes) SELECT id, 30 FROM users WHERE name = 'oceanic'`,
    );
    await s.db.query('INSERT INTO device_offline_thresholds (device_id, offline_minutes) VALUES ($1, 10)', [vessels[0]!.id]);
  }, 240_000);
  afterAll(() => s.close());

  it('answers time and fleet statistics exactly as the reports do, at any zone, window and threshold', async () => {
    // Now, and a window ending in the middle of an hour 3.5 days ago (hours with reports after its end).
    for (const at of [now, pastEnd]) {
      for (const days of [5, 15]) {
        for (const utcOffset of [0, 8, -5, 12]) {
          const w = statisticsWindow(days, utcOffset, at);
          for (const vessel of vessels) {
            const fromRollups = await dailyStatistics(s.db, admin, vessel.id, w, 'rollups');
            const fromReports = await dailyStatistics(s.db, admin, vessel.id, w, 'reports');
            expect(fromRollups).toEqual(fromReports);
          }
          const q = { pageIndex: 1, pageSize: 500, sort: 'name' as const, order: 'asc' as const };
          const fleetRollups = await fleetStatistics(s.db, admin, w, q, 'rollups');
          const fleetReports = await fleetStatistics(s.db, admin, w, q, 'reports');
          expect(fleetRollups.list.map((r) => [r.deviceId, r.onlineSeconds, r.warnSeconds])).toEqual(
            fleetReports.list.map((r) => [r.deviceId, r.onlineSeconds, r.warnSeconds]),
          );
          const ours = fleetRollups.list.filter((r) => vessels.some((v) => v.id === r.deviceId));
          expect(ours.filter((r) => (r.onlineSeconds ?? 0) > 0).length).toBe(4);
        }
      }
    }
  });

  it('reads sealed whole days from the daily rollups with the same answers, before and after a late report rebuilds its day', async () => {
    const q = { pageIndex: 1, pageSize: 500, sort: 'name' as const, order: 'asc' as const };
    const figures = (list: { deviceId: number; onlineSeconds: number | null; warnSeconds: number | null }[]) =>
      list.map((r) => [r.deviceId, r.onlineSeconds, r.warnSeconds]);
    const compare = async () => {
      for (const at of [now, pastEnd]) {
        for (const days of [5, 15]) {
          for (const utcOffset of [0, 8, -5]) {
            const w = statisticsWindow(days, utcOffset, at);
            const fromRollups = await fleetStatistics(s.db, admin, w, q, 'rollups');
            expect(figures(fromRollups.list)).toEqual(figures((await fleetStatistics(s.db, admin, w, q, 'reports')).list));
          }
        }
      }
    };
    const count = async (sql: string) => (await s.db.query<{ n: number }>(sql))[0]!.n;
    // A report's per-day fleet time and longest outages over the last 10 local days, at three zones.
    const ids = vessels.map((v) => v.id);
    const reportFigures = async () => {
      const out = [];
      for (const offset of [0, 8, -5]) {
        const toMs = Math.floor((now + offset * HOUR) / DAY) * DAY - offset * HOUR;
        const f = await rollupFigures(s.db, admin, { fromMs: toMs - 10 * DAY, toMs }, offset, ids);
        out.push(
          [...f.days].sort((a, b) => a.k - b.k),
          [...f.outages].sort((a, b) => a.id - b.id),
        );
      }
      return out;
    };
    const fromHours = await reportFigures();
    const [oldest] = await s.db.query<{ ms: number }>(
      'SELECT (extract(epoch FROM min(hour_start)) * 1000)::float8 AS ms FROM report_hourly',
    );
    const ended = (align: number) => Math.floor((now - 5 * MIN - align * HOUR) / DAY) - Math.floor((oldest!.ms - align * HOUR) / DAY);
    const first = await sealDailyRollups(s.db, { now });
    // The zones the statistics were asked in above (UTC, UTC+8, UTC-5, UTC+12) are sealed: days starting at 00, 16, 05 and 12 UTC,
    // every ended day from the oldest hour row's (15 or 16 each, as the 16 days of reports fall on the clock).
    expect(first.sealed).toBe(ended(0) + ended(16) + ended(5) + ended(12));
    for (const [offset, align] of [
      [0, 0],
      [8, 16],
      [-5, 5],
      [12, 12],
    ] as const) {
      expect(alignOf(offset)).toBe(align);
      expect(await sealedUntilMs(s.db, align)).toBe(Math.floor((now - 5 * MIN - align * HOUR) / DAY) * DAY + align * HOUR);
    }
    expect(await count('SELECT count(*)::int AS n FROM report_daily')).toBeGreaterThan(4 * 4 * 14);
    expect(await count('SELECT count(*)::int AS n FROM report_daily_dirty')).toBe(0);
    // Sealing again finds nothing to do.
    expect(await sealDailyRollups(s.db, { now })).toEqual({ sealed: 0, rebuilt: 0 });
    await compare();
    expect(await reportFigures()).toEqual(fromHours);

    // A late report in the middle of a long silence of vessel 1 (1-minute threshold), in a sealed day 4 days ago.
    const [gap] = await s.db.query<{ at: Date }>(
      `SELECT t + (nt - t) / 2 AS at FROM (SELECT device_time AS t, lead(device_time) OVER (ORDER BY device_time) AS nt
         FROM device_reports WHERE device_id = $1) r
        WHERE t >= date_bin('1 day', now() - interval '4 days', timestamptz '2000-01-01 00:00:00+00') + interval '2 hours'
          AND nt - t > interval '10 minutes' ORDER BY t LIMIT 1`,
      [vessels[1]!.id],
    );
    const w = statisticsWindow(15, 8, now);
    const onlineOf = async () =>
      (await fleetStatistics(s.db, admin, w, q, 'rollups')).list.find((r) => r.deviceId === vessels[1]!.id)!.onlineSeconds!;
    const before = await onlineOf();
    await ingestAt(s, vessels[1]!.num, [gap!.at.getTime()]);
    expect(await count('SELECT count(*)::int AS n FROM report_daily_dirty')).toBeGreaterThan(0);
    // Read from its hours until the day is rebuilt: the minute it covers counts at once.
    expect(await onlineOf()).toBe(before + 60);
    await compare();
    const whileMarked = await reportFigures();
    expect(whileMarked).not.toEqual(fromHours);
    expect((await sealDailyRollups(s.db, { now })).rebuilt).toBeGreaterThan(0);
    expect(await reportFigures()).toEqual(whileMarked);
    expect(await count('SELECT count(*)::int AS n FROM report_daily_dirty')).toBe(0);
    expect(await onlineOf()).toBe(before + 60);
    await compare();

    // The kept rows are those a build from scratch gives.
    const snapshot = `SELECT device_id, day_start, reports, warn_reports, first_at, last_at, last_warn, next_at, covered_us, warn_covered_us,
        (SELECT array_agg(g ORDER BY g) FROM unnest(long_gaps_us) g) AS long_gaps, (SELECT array_agg(g ORDER BY g) FROM unnest(warn_long_gaps_us) g) AS warn_long_gaps,
        bytes_used FROM report_daily ORDER BY device_id, day_start`;
    const kept = await s.db.query(snapshot);
    await s.db.query('SELECT report_daily_build(array_agg(device_id), array_agg(day_start)) FROM report_daily');
    expect(await s.db.query(snapshot)).toEqual(kept);
  });

  it("reads the statistics windows' spans with the same answers, a late report's vessel from its days until the next build", async () => {
    const q = { pageIndex: 1, pageSize: 500, sort: 'name' as const, order: 'asc' as const };
    const count = async (sql: string, params: unknown[] = []) => (await s.db.query<{ n: number }>(sql, params))[0]!.n;
    const onlineAt = async (w: ReturnType<typeof statisticsWindow>, id: number) =>
      (await fleetStatistics(s.db, admin, w, q, 'rollups')).list.find((r) => r.deviceId === id)!.onlineSeconds!;
    const compare = async (at: number, offsets: readonly number[] = [0, 8, -5]) => {
      for (const days of [5, 10, 15]) {
        for (const utcOffset of offsets) {
          const w = statisticsWindow(days, utcOffset, at);
          const figures = async (source: 'rollups' | 'reports') =>
            (await fleetStatistics(s.db, admin, w, q, source)).list.map((r) => [r.deviceId, r.onlineSeconds, r.warnSeconds]);
          expect(await figures('rollups')).toEqual(await figures('reports'));
        }
      }
    };
    /** Whether vessel `id`'s figure over the window comes from its span: an hour added to the span shows. */
    const readsSpan = async (w: ReturnType<typeof statisticsWindow>, id: number) => {
      const before = await onlineAt(w, id);
      const tamper = (sign: string) =>
        s.db.query(
          `UPDATE report_span SET covered_us = covered_us ${sign} 3600000000, inner_us = inner_us ${sign} 3600000000 WHERE device_id = $1 AND days = $2`,
          [id, w.days],
        );
      await tamper('+');
      const after = await onlineAt(w, id);
      await tamper('-');
      return after - before === 3600;
    };
    // Asked once, each window (zone and days) is registered; the leader then builds its span up to the last hour.
    await compare(now);
    expect(await count('SELECT count(*)::int AS n FROM report_span_state WHERE days = 10 AND align IN (0, 16, 5)')).toBe(3);
    // The vessels' reports came in long before the build: their marks (made as the fixture wrote them just now) are older than it.
    await s.db.query("UPDATE report_span_dirty SET marked_at = marked_at - interval '1 hour'");
    const built = await buildReportSpans(s.db, { now });
    expect(built).toBe(await count('SELECT count(*)::int AS n FROM report_span_state'));
    expect(await buildReportSpans(s.db, { now })).toBe(0);
    expect(
      await count('SELECT count(DISTINCT device_id)::int AS n FROM report_span WHERE device_id = ANY($1)', [vessels.map((v) => v.id)]),
    ).toBe(4);
    await compare(now);
    const w15 = statisticsWindow(15, 8, now);
    for (const v of vessels) expect(await readsSpan(w15, v.id)).toBe(true);
    // A threshold changed since the build: the span's long gaps are capped at the new one, not its time at the old.
    await s.db.query('UPDATE device_offline_thresholds SET offline_minutes = 7 WHERE device_id = $1', [vessels[0]!.id]);
    await compare(now);
    expect(await readsSpan(w15, vessels[0]!.id)).toBe(true);
    await s.db.query('UPDATE device_offline_thresholds SET offline_minutes = 10 WHERE device_id = $1', [vessels[0]!.id]);

    // A late report in the middle of a silence of vessel 1 (1-minute threshold) within the spans (2 days to 1 hour before the last built hour).
    const [gap] = await s.db.query<{ at: Date }>(
      `SELECT t + (nt - t) / 2 AS at FROM (SELECT device_time AS t, lead(device_time) OVER (ORDER BY device_time) AS nt
         FROM device_reports WHERE device_id = $1) r
        WHERE t > (SELECT max(through) FROM report_span_state) - interval '2 days' AND nt < (SELECT min(through) FROM report_span_state) - interval '1 hour'
          AND nt - t > interval '4 minutes' ORDER BY t DESC LIMIT 1`,
      [vessels[1]!.id],
    );
    const before = await onlineAt(w15, vessels[1]!.id);
    await ingestAt(s, vessels[1]!.num, [gap!.at.getTime()]);
    expect(await count('SELECT count(*)::int AS n FROM report_span_dirty WHERE device_id = $1', [vessels[1]!.id])).toBe(1);
    // The marked vessel is read from its days and hours at once (its figure grows), the others still from their spans.
    expect(await onlineAt(w15, vessels[1]!.id)).toBeGreaterThan(before);
    expect(await readsSpan(w15, vessels[1]!.id)).toBe(false);
    expect(await readsSpan(w15, vessels[0]!.id)).toBe(true);
    await compare(now);
    // A build more than the margin after the mark reads the late report into the span, and drops the mark.
    await s.db.query("UPDATE report_span_dirty SET marked_at = marked_at - interval '1 hour'");
    await s.db.query("UPDATE report_span_state SET through = through - interval '1 hour'");
    expect(await buildReportSpans(s.db, { now })).toBe(built);
    expect(await count('SELECT count(*)::int AS n FROM report_span_dirty')).toBe(0);
    expect(await readsSpan(w15, vessels[1]!.id)).toBe(true);
    await compare(now);

    // A vessel silent since 2 minutes before the last built hour reports now: the link to it (next_at of an ended
    // hour) marks nothing, and the span's time to that report is read from the hour after it. With a 2-hour
    // threshold, a span that took no next report would count up to the window's end instead.
    const late = await reportingDevice(s.db, 'oceanic', 4);
    await s.db.query('INSERT INTO device_offline_thresholds (device_id, offline_minutes) VALUES ($1, 120)', [late.id]);
    const clock = Date.now();
    const through = Math.floor((clock - 10 * MIN) / HOUR) * HOUR;
    await ingestAt(s, late.num, [through - 3 * DAY, through - 50 * MIN, through - 2 * MIN]);
    await s.db.query("UPDATE report_span_dirty SET marked_at = marked_at - interval '1 hour'");
    await s.db.query("UPDATE report_span_state SET through = through - interval '1 hour'");
    await buildReportSpans(s.db, { now: clock });
    await ingestAt(s, late.num, [Date.now() - 1_000]);
    expect(await count('SELECT count(*)::int AS n FROM report_span_dirty WHERE device_id = $1', [late.id])).toBe(0);
    // The zones whose local day is not about to turn (the spans start at a local midnight).
    const offsets = [0, 8, -5, 12].filter((o) => {
      const hour = new Date(clock + o * HOUR).getUTCHours();
      return hour >= 2 && hour < 22;
    });
    const end = Date.now() + MIN;
    await compare(end, offsets);
    expect(await readsSpan(statisticsWindow(15, offsets[0]!, end), late.id)).toBe(true);
  });

  it("draws the long windows' bands from the rollups exactly as from every report", async () => {
    let summarized = 0;
    for (const vessel of vessels) {
      for (const minutes of [1, 10, 30, 3000]) {
        for (const to of [now, pastEnd, now - 2 * DAY - 1234]) {
          const from = to - 7 * DAY;
          const fromRollups = await rollupBandPoints(s.db, vessel.id, from, to, minutes);
          const fromReports = await rawBandPoints(s.db, vessel.id, from, to, minutes);
          expect(stateBands(fromRollups, from, to, minutes * MIN)).toEqual(stateBands(fromReports, from, to, minutes * MIN));
          if (fromRollups.length < fromReports.length) summarized += 1;
        }
      }
    }
    // The rollups did stand in for reports (whole hours of one state), not only the reports themselves.
    expect(summarized).toBeGreaterThan(0);
  });

  it('keeps the rows the reports would give if rebuilt from scratch', async () => {
    const snapshot = `SELECT device_id, hour_start, reports, warn_reports, first_at, last_at, last_warn, next_at, covered_us, warn_covered_us,
        (SELECT array_agg(g ORDER BY g) FROM unnest(long_gaps_us) g) AS long_gaps, (SELECT array_agg(g ORDER BY g) FROM unnest(warn_long_gaps_us) g) AS warn_long_gaps,
        signal_min, signal_max, round(signal_sum::numeric, 2) AS signal_sum, speed_min, speed_max
      FROM report_hourly ORDER BY device_id, hour_start`;
    const kept = await s.db.query(snapshot);
    expect(kept.length).toBeGreaterThan(100);
    await s.db.query(
      `SELECT report_hourly_rebuild(array_agg(device_id), array_agg(hour_start)) FROM (SELECT device_id, hour_start FROM report_hourly) k`,
    );
    await s.db.query(`UPDATE report_hourly h SET next_at = n.nx
      FROM (SELECT device_id, hour_start, lead(first_at) OVER (PARTITION BY device_id ORDER BY hour_start) AS nx FROM report_hourly) n
     WHERE h.device_id = n.device_id AND h.hour_start = n.hour_start`);
    expect(await s.db.query(snapshot)).toEqual(kept);
    const [counts] = await s.db.query<{ rollup: number; reports: number }>(
      'SELECT (SELECT sum(reports)::int FROM report_hourly) AS rollup, (SELECT count(*)::int FROM device_reports) AS reports',
    );
    expect(counts!.rollup).toBe(counts!.reports);
  });
});
