/* eslint-disable max-lines -- the demo story is one narrative told in the order it happens (history, alarms, voyages, firmware, after-sales); split by table it would scatter */
import type { Queryable } from './connection';
import type { DeviceReport } from '../../src/domain/reportSchema';
import { faultInfo } from '../../src/domain/faultCodes';
import { linkKindBits } from '../../src/domain/links';
import { backfillStory, type BackfillStory } from '../simulator/backfill';
import { SEA_ROUTES, routeGeometry } from '../simulator/seaRoutes';
import { settleDataUsage } from '../modules/dataPlans/dataUsageQueries';
import { recordLinks, saveCurrentLinks } from '../modules/monitoring/linkWriteQueries';

/**
 * How much history the demo starts with, and how dense: a report every 10 minutes over the newest
 * 7 days (the vessel page's 7-day band and charts, the default 5-day statistics: a report covers
 * the time to the next one up to the 10-minute offline threshold), hourly before (about 65,000
 * reports in all, so the first start stays quick).
 */
export const STORY_DAYS = 30;
export const STORY_STEP_MINUTES = 10;
export const STORY_DENSE_DAYS = 7;
export const STORY_SPARSE_STEP_MINUTES = 60;
const DAY_MS = 86_400_000;

interface DemoVessel {
  id: number;
  ownerId: number;
  num: string;
  sn: string;
  model: string;
  kind: string;
  name: string;
  status: number;
}

/**
 * The demo's story on first start: a month of history for every activated demo vessel
 * (reports along its sea lane ending where the live simulator starts it, the alarms they raised
 * and cleared, the latest state), voyages, firmware packages with a finished and a running
 * rollout, after-sales reports, fault-clearing records, a camera link and extra links. Each table
 * gets one bulk INSERT (the reports from column arrays, in one statement, so the hourly rollups'
 * statement trigger runs once).
 */
export async function seedStory(tx: Queryable, ids: Map<string, number>, now = Date.now(), seed = 1): Promise<void> {
  const vessels = await tx.query<DemoVessel>(
    `SELECT id, owner_id AS "ownerId", device_num AS num, device_sn AS sn, device_model AS model, device_kind AS kind, name, status FROM devices
      WHERE activated AND device_num LIKE 'A1%' AND device_sn LIKE 'SN2024%' ORDER BY id`,
  );
  const cols = {
    device: [] as number[],
    time: [] as string[],
    lat: [] as number[],
    lon: [] as number[],
    speed: [] as number[],
    heading: [] as number[],
    azimuth: [] as (number | null)[],
    elevation: [] as (number | null)[],
    skew: [] as (number | null)[],
    satName: [] as (string | null)[],
    satLon: [] as (number | null)[],
    signal: [] as number[],
    snr: [] as number[],
    lock: [] as boolean[],
    tx: [] as boolean[],
    lte: [] as (number | null)[],
    faults: [] as string[],
    adu: [] as string[],
    bdu: [] as string[],
    bytes: [] as (number | null)[],
    linkKinds: [] as (number | null)[],
    linksUp: [] as (number | null)[],
  };
  const alarms = {
    device: [] as number[],
    code: [] as string[],
    severity: [] as string[],
    raised: [] as string[],
    seen: [] as string[],
    cleared: [] as (string | null)[],
  };
  const stories = new Map<number, BackfillStory>();
  for (const [index, vessel] of vessels.entries()) {
    // Every vessel the live simulator drives reports up to the start, without a gap: the live
    // vessel carries on from its newest report (server/simulator/startDemo.ts).
    const story = backfillStory(index, {
      seed,
      end: now,
      days: STORY_DAYS,
      stepMinutes: STORY_STEP_MINUTES,
      denseDays: STORY_DENSE_DAYS,
      sparseStepMinutes: STORY_SPARSE_STEP_MINUTES,
      kind: vessel.kind,
    });
    stories.set(vessel.id, story);
    const { reports } = story;
    for (const r of reports) {
      cols.device.push(vessel.id);
      cols.time.push(r.deviceTime);
      cols.lat.push(r.lat);
      cols.lon.push(r.lon);
      cols.speed.push(r.speed);
      cols.heading.push(r.heading);
      cols.azimuth.push(r.azimuth ?? null);
      cols.elevation.push(r.elevation ?? null);
      cols.skew.push(r.skew ?? null);
      cols.satName.push(r.satellite?.name ?? null);
      cols.satLon.push(r.satellite?.longitude ?? null);
      cols.signal.push(r.signalLevel);
      cols.snr.push(r.snr);
      cols.lock.push(r.modemLock);
      cols.tx.push(r.txOn);
      cols.lte.push(r.lteSignal ?? null);
      cols.faults.push(`{${r.faults.join(',')}}`);
      cols.adu.push(r.firmware?.adu ?? '');
      cols.bdu.push(r.firmware?.bdu ?? '');
      cols.bytes.push(r.bytesUsed ?? null);
      const bits = linkKindBits(r.links);
      cols.linkKinds.push(bits?.kinds ?? null);
      cols.linksUp.push(bits?.up ?? null);
    }
    collectAlarms(vessel.id, reports, alarms);
  }
  await tx.query(
    `INSERT INTO device_reports (device_id, device_time, received_at, lat, lon, speed, heading, azimuth, elevation, skew, satellite_name,
       satellite_longitude, signal_level, snr, modem_lock, tx_on, lte_signal, faults, adu_version, bdu_version, bytes_used, link_kinds, links_up)
     SELECT d, t, t, la, lo, sp, hd, az, el, sk, sn, sl, sg, sr, ml, tx, lt, f::text[], a, b, by, lk, lu
       FROM unnest($1::int[], $2::timestamptz[], $3::float8[], $4::float8[], $5::real[], $6::real[], $7::real[], $8::real[], $9::real[],
                   $10::text[], $11::real[], $12::real[], $13::real[], $14::bool[], $15::bool[], $16::real[], $17::text[], $18::text[], $19::text[],
                   $20::bigint[], $21::smallint[], $22::smallint[])
            AS u(d, t, la, lo, sp, hd, az, el, sk, sn, sl, sg, sr, ml, tx, lt, f, a, b, by, lk, lu)`,
    [
      cols.device,
      cols.time,
      cols.lat,
      cols.lon,
      cols.speed,
      cols.heading,
      cols.azimuth,
      cols.elevation,
      cols.skew,
      cols.satName,
      cols.satLon,
      cols.signal,
      cols.snr,
      cols.lock,
      cols.tx,
      cols.lte,
      cols.faults,
      cols.adu,
      cols.bdu,
      cols.bytes,
      cols.linkKinds,
      cols.linksUp,
    ],
  );
  // The latest state of each vessel is its newest report; the device list's status follows it.
  await tx.query(
    `INSERT INTO device_state (device_id, reported_at, received_at, state, lat, lon, speed, heading, azimuth, elevation, skew, satellite_name,
       satellite_longitude, signal_level, snr, modem_lock, tx_on, lte_signal, faults, adu_version, bdu_version)
     SELECT DISTINCT ON (device_id) device_id, device_time, received_at, CASE WHEN cardinality(faults) > 0 OR NOT modem_lock THEN 2 ELSE 1 END,
            lat, lon, speed, heading, azimuth, elevation, skew, satellite_name, satellite_longitude, signal_level, snr, modem_lock, tx_on,
            lte_signal, faults, adu_version, bdu_version
       FROM device_reports ORDER BY device_id, device_time DESC`,
  );
  await tx.query(
    `UPDATE devices d SET status = CASE WHEN s.reported_at < now() - interval '10 minutes' THEN 0 ELSE s.state END,
            speed = s.speed, heading = s.heading
       FROM device_state s WHERE s.device_id = d.id`,
  );
  await tx.query(
    `INSERT INTO alarms (device_id, code, severity, raised_at, last_seen_at, cleared_at)
     SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::timestamptz[], $5::timestamptz[], $6::timestamptz[])`,
    [alarms.device, alarms.code, alarms.severity, alarms.raised, alarms.seen, alarms.cleared],
  );
  await seedDataPlans(tx, ids, vessels, now);
  // The vBox vessels' links over their history (the reports carry them), as the ingest keeps them.
  await saveCurrentLinks(
    tx,
    await recordLinks(
      tx,
      vessels.map((v) => ({ id: v.id, before: null, reports: stories.get(v.id)!.reports })),
    ),
  );
  await seedRecords(tx, ids, vessels, stories, now);
}

/**
 * Data plans for six vessels, their quotas chosen from the month of history so that the demo shows
 * one vessel over its plan (DATA100 and DATA80), one past 80 % (DATA80) and others below; reset
 * days spread 5 to 25 days back. Every vessel's current usage is then settled (data_usage, alarms).
 */
async function seedDataPlans(tx: Queryable, ids: Map<string, number>, vessels: readonly DemoVessel[], now: number) {
  const live = [...vessels.filter((v) => v.status !== 0), ...vessels.filter((v) => v.status === 0)];
  const shares = [112, 86, 45, 62, 30, 55];
  const daysBack = [20, 16, 12, 25, 8, 5];
  const planned = live.slice(0, shares.length).map((v, i) => ({
    id: v.id,
    share: shares[i]!,
    resetDay: Math.min(28, new Date(now - daysBack[i]! * DAY_MS).getUTCDate()),
  }));
  if (planned.length) {
    await tx.query(
      `INSERT INTO data_plans (device_id, quota_bytes, reset_day, updated_by, updated_at)
       SELECT u.id, greatest(1000000000, round(COALESCE((SELECT sum(h.bytes_used) FROM report_hourly h WHERE h.device_id = u.id
                AND h.hour_start >= data_period_start(u.day, now())), 0) * 100 / u.share / 1000000000) * 1000000000)::bigint, u.day, $4, now()
         FROM unnest($1::int[], $2::int[], $3::int[]) AS u(id, day, share)`,
      [planned.map((p) => p.id), planned.map((p) => p.resetDay), planned.map((p) => p.share), ids.get('admin') ?? null],
    );
  }
  await settleDataUsage(
    tx,
    vessels.map((v) => v.id),
  );
}

/** Each run of reports holding a fault code is one alarm: raised at its first, cleared at the next report without it. */
function collectAlarms(
  deviceId: number,
  reports: readonly DeviceReport[],
  out: { device: number[]; code: string[]; severity: string[]; raised: string[]; seen: string[]; cleared: (string | null)[] },
) {
  const open = new Map<string, { raised: string; seen: string }>();
  for (const r of reports) {
    for (const code of r.faults) {
      const a = open.get(code);
      if (a) a.seen = r.deviceTime;
      else open.set(code, { raised: r.deviceTime, seen: r.deviceTime });
    }
    for (const [code, a] of open) {
      if (r.faults.includes(code)) continue;
      out.device.push(deviceId);
      out.code.push(code);
      out.severity.push(faultInfo(code)?.severity ?? 'minor');
      out.raised.push(a.raised);
      out.seen.push(a.seen);
      out.cleared.push(r.deviceTime);
      open.delete(code);
    }
  }
  for (const [code, a] of open) {
    out.device.push(deviceId);
    out.code.push(code);
    out.severity.push(faultInfo(code)?.severity ?? 'minor');
    out.raised.push(a.raised);
    out.seen.push(a.seen);
    out.cleared.push(null);
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The key the demo's firmware rows hold until their files are made at start (server/modules/firmware/demoFiles.ts). */
export const DEMO_FIRMWARE_KEY_PREFIX = 'demo-';

/** Voyages, firmware and its rollouts, after-sales reports, fault clearing, a camera and extra links. */
async function seedRecords(
  tx: Queryable,
  ids: Map<string, number>,
  vessels: readonly DemoVessel[],
  stories: ReadonlyMap<number, BackfillStory>,
  now: number,
) {
  const admin = ids.get('admin')!;
  // Voyages as the history sails them: the last leg (ended at the port the vessel left last), the
  // current one (under way to the port ahead, due when its cruising speed gets it there) and, for
  // some, the next one back.
  const voyages: unknown[][] = [];
  for (const [i, v] of vessels.entries()) {
    const { voyage, portCalls } = stories.get(v.id)!;
    const legMs = (routeGeometry(SEA_ROUTES[i % SEA_ROUTES.length]!).lengthNm / voyage.cruiseKn) * 3_600_000;
    const left = portCalls[0]?.at ?? now - legMs + (voyage.remainingNm / voyage.cruiseKn) * 3_600_000;
    const due = now + (voyage.remainingNm / voyage.cruiseKn) * 3_600_000;
    const owner = [...ids.entries()].find(([, id]) => id === v.ownerId)?.[0] ?? 'oceanic';
    const agent = owner === 'polaris' ? 'Nordic Ship Agency' : 'Pacific Ship Agency';
    voyages.push([
      v.id,
      `V${24_100 + i * 3}`,
      voyage.origin,
      iso(portCalls[1]?.at ?? left - legMs),
      iso(left),
      agent,
      'ops@example.com',
      '+65 6123 4567',
      null,
      ids.get(owner),
    ]);
    voyages.push([
      v.id,
      `V${24_101 + i * 3}`,
      voyage.destination,
      iso(left),
      iso(due),
      agent,
      'ops@example.com',
      '+65 6123 4567',
      'Under way',
      ids.get(owner),
    ]);
    if (i % 3 === 0)
      voyages.push([
        v.id,
        `V${24_102 + i * 3}`,
        voyage.origin,
        iso(due + DAY_MS),
        iso(due + DAY_MS + legMs),
        agent,
        null,
        null,
        'Planned',
        ids.get(owner),
      ]);
  }
  await insertRows(
    tx,
    'voyages',
    ['device_id', 'voyage_no', 'destination', 'etd', 'eta', 'agent', 'email', 'phone', 'remark', 'created_by'],
    ['int', 'text', 'text', 'timestamptz', 'timestamptz', 'text', 'text', 'text', 'text', 'int'],
    voyages,
  );

  // Firmware: two releases of the VSAT terminal and the antenna, one beta; the older VSAT release
  // rolled out to the whole enterprise (finished), the newer one rolling out now.
  const fw = await tx.query<{ id: number; model: string; version: string }>(
    `INSERT INTO firmware_packages (device_type, customer, model, version, version_type, enabled, update_info, file_name, file_size, sha256, storage_key, uploaded_by, created_at, updated_at)
     SELECT t, c, m, v, vt, true, info, m || '-' || v || '.bin', size, encode(sha256(convert_to(m || v, 'UTF8')), 'hex'), $2 || m || '-' || v, $1, ts, ts
       FROM (VALUES ('VSAT terminal', 'Oceanic Shipping Co.', 'VT-2000', 'V2.3.0', 'release', 'Faster modem lock after a satellite handover', 4718592, now() - interval '26 days'),
                    ('VSAT terminal', 'Oceanic Shipping Co.', 'VT-2000', 'V2.4.1', 'release', 'Fixes BDU temperature alarms; better tracking in heavy seas', 4915200, now() - interval '3 days'),
                    ('Ku-band VSAT antenna', 'Polaris Marine Ltd.', 'SA-100K', 'V1.2.5', 'release', 'Smoother skew control at high latitudes', 3145728, now() - interval '12 days'),
                    ('Ku-band VSAT antenna', 'Polaris Marine Ltd.', 'SA-100K', 'V1.3.0-beta', 'beta', 'Trial: new search pattern for the Arctic beams', 3276800, now() - interval '1 day'))
            AS p(t, c, m, v, vt, info, size, ts)
     RETURNING id, model, version`,
    [admin, DEMO_FIRMWARE_KEY_PREFIX],
  );
  const vsat = vessels.filter((v) => v.model === 'VT-2000');
  const older = fw.find((f) => f.version === 'V2.3.0')!.id;
  const newer = fw.find((f) => f.version === 'V2.4.1')!.id;
  const rollouts = await tx.query<{ id: number }>(
    `INSERT INTO firmware_rollouts (firmware_id, max_concurrent, created_by, created_at)
     VALUES ($1, 5, $3, now() - interval '25 days'), ($2, 2, $3, now() - interval '2 hours') RETURNING id`,
    [older, newer, admin],
  );
  const targets: unknown[][] = [];
  for (const v of vsat)
    targets.push([rollouts[0]!.id, v.id, 'updated', 100, null, iso(now - 25 * DAY_MS), iso(now - 25 * DAY_MS + 3_600_000)]);
  vsat.forEach((v, i) => {
    const [state, progress, started, finished] =
      i === 0
        ? ['updated', 100, now - 7_000_000, now - 5_000_000]
        : i === 1
          ? ['downloading', 45, now - 600_000, null]
          : i === 2
            ? ['updating', 80, now - 1_200_000, null]
            : ['queued', 0, null, null];
    targets.push([
      rollouts[1]!.id,
      v.id,
      state,
      progress,
      null,
      started === null ? null : iso(started as number),
      finished === null ? null : iso(finished as number),
    ]);
  });
  await insertRows(
    tx,
    'firmware_rollout_targets',
    ['rollout_id', 'device_id', 'state', 'progress', 'message', 'started_at', 'finished_at'],
    ['int', 'int', 'text', 'int', 'text', 'timestamptz', 'timestamptz'],
    targets,
  );

  // After-sales reports and fault-clearing records, on the vessels with the most alarms.
  const troubled = await tx.query<{ id: number; code: string; at: string }>(
    `SELECT DISTINCT ON (device_id) device_id AS id, code, raised_at AS at FROM alarms ORDER BY device_id, raised_at DESC LIMIT 8`,
  );
  const byId = new Map(vessels.map((v) => [v.id, v]));
  const kinds = ['hardware', 'signal', 'software', 'installation', 'consultation', 'other'];
  const reports = troubled.slice(0, 6).map((a, i) => {
    const v = byId.get(a.id)!;
    const owner = v.ownerId === ids.get('polaris') ? 'Polaris Marine Ltd.' : 'Oceanic Shipping Co.';
    return [
      v.model,
      v.sn,
      'Fleet operations',
      i % 2 ? 'Chen Wei' : 'Anna Berg',
      owner,
      v.num,
      iso(now - (2 + i * 4) * DAY_MS).slice(0, 10),
      i % 2 ? 'Please send a spare BDU to the next port' : null,
      kinds[i % kinds.length],
      `${v.name}: fault ${a.code} reported by the crew`,
      i % 3 === 0 ? 'Service' : 'R&D',
      null,
      v.id,
      a.code,
      admin,
    ];
  });
  await insertRows(
    tx,
    'after_sales_reports',
    [
      'device_model',
      'device_sn',
      'feedback_apartment',
      'feedback_people',
      'customer',
      'device_num',
      'dispatch_of_data',
      'customer_suggestion',
      'classification',
      'description',
      'department',
      'reamrk',
      'device_id',
      'fault_code',
      'reporter_id',
    ],
    ['text', 'text', 'text', 'text', 'text', 'text', 'date', 'text', 'text', 'text', 'text', 'text', 'int', 'text', 'int'],
    reports,
  );
  await insertRows(
    tx,
    'fault_clearing_records',
    ['device_id', 'code', 'steps_done', 'action', 'cleared', 'recorded_by', 'created_at'],
    ['int', 'text', 'text', 'text', 'bool', 'int', 'timestamptz'],
    troubled.map((a, i) => [
      a.id,
      a.code,
      i % 2 ? '{1,2}' : '{1,2,3}',
      i % 2 ? 'Restarted the BDU; watching' : 'Reseated the cable; cleared',
      i % 2 === 0,
      admin,
      a.at,
    ]),
    { steps_done: 'int[]' },
  );

  // A camera on Polaris's first vessel (its camera grant) and on Oceanic's first; extra links for both enterprises.
  const firstOf = (owner: string) => vessels.find((v) => v.ownerId === ids.get(owner));
  await insertRows(
    tx,
    'cameras',
    ['device_id', 'name', 'link', 'description'],
    ['int', 'text', 'text', 'text'],
    [firstOf('polaris'), firstOf('oceanic')]
      .filter((v) => v !== undefined)
      .map((v) => [v!.id, 'Bridge camera', 'https://camera.example.com/live/' + v!.num, 'Forward view from the bridge']),
  );
  await insertRows(
    tx,
    'extra_links',
    ['user_id', 'content'],
    ['int', 'text'],
    [
      [ids.get('oceanic'), 'Fleet handbook: https://docs.example.com/oceanic/handbook\nPort agents: https://agents.example.com/oceanic'],
      [ids.get('polaris'), 'Ice charts: https://ice.example.com/arctic\nService desk: https://support.example.com/polaris'],
    ],
  );
}

/** One INSERT for many rows, from one array per column (unnest). */
async function insertRows(
  tx: Queryable,
  table: string,
  columns: string[],
  types: string[],
  rows: unknown[][],
  casts: Record<string, string> = {},
) {
  if (!rows.length) return;
  const params = columns.map((_, c) => rows.map((r) => r[c] ?? null));
  const select = columns.map((name, c) => (casts[name] ? `c${c}::${casts[name]}` : `c${c}`)).join(', ');
  await tx.query(
    `INSERT INTO ${table} (${columns.join(', ')}) SELECT ${select} FROM unnest(${types.map((t, c) => `$${c + 1}::${t}[]`).join(', ')}) AS u(${columns.map((_, c) => `c${c}`).join(', ')})`,
    params,
  );
}
