import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { ServerConfig } from '../../server/config';
import { createTestServer, engines, startWithLogins, type TestServer } from './helpers';
import { ErrorCode } from '../../src/domain/errorCodes';
import { ingest, minutesAgo, report, reportingDevice, grantedAndUngranted } from './monitoringFixtures';
import { liveHubs } from '../../server/modules/live/liveRoutes';
import { pruneHistory } from '../../server/modules/monitoring';
import { openStream, sleep, type LiveStream, type SseEvent } from './liveStream';

/**
 * Live push (docs/architecture.md, "Live push"): the console's Server-Sent Events stream of alarms and device
 * states, scoped as the API is, resumable with Last-Event-ID, ended when the session ends, and
 * fanned out across replicas through LISTEN/NOTIFY.
 */
describe.each(engines)('live push on %s', (engine) => {
  let s: TestServer;
  let tokens: Record<string, string>;
  let oceanicDevice: { id: number; num: string };
  let polarisDevice: { id: number; num: string };
  let grantedDevice: number;
  let ungrantedDevice: number;
  const streams: LiveStream[] = [];
  const open = async (...args: Parameters<typeof openStream> extends [unknown, ...infer R] ? R : never) => {
    const stream = await openStream(s, ...args);
    streams.push(stream);
    return stream;
  };
  /** Flips a device between online and offline: one 'state' event, written by the trigger. */
  const toggle = async (deviceId: number) => {
    await s.db.query('UPDATE devices SET status = CASE WHEN status = 1 THEN 0 ELSE 1 END WHERE id = $1', [deviceId]);
  };
  const isState = (deviceId: number) => (e: SseEvent) => e.event === 'state' && e.data.deviceId === deviceId;
  const maxEventId = async () => Number((await s.db.query<{ m: string }>('SELECT coalesce(max(id), 0)::text AS m FROM live_events'))[0]!.m);

  beforeAll(async () => {
    ({ s, tokens } = await startWithLogins(engine, ['admin', 'oceanic', 'oceanops', 'polaris']));
    oceanicDevice = await reportingDevice(s.db, 'oceanic', 0);
    polarisDevice = await reportingDevice(s.db, 'polaris', 0);
    ({ granted: grantedDevice, ungranted: ungrantedDevice } = await grantedAndUngranted(s.db));
  });
  afterAll(async () => {
    // Closing the server ends the streams still open (a deploy's stop does not hang on them).
    await s.close();
    await Promise.all(streams.map((stream) => stream.closed));
  });

  it('streams without compression or buffering: the first bytes arrive at once, then a heartbeat comment', async () => {
    const stream = await open(tokens.oceanic!, { headers: { 'accept-encoding': 'br, gzip, deflate' } });
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['content-encoding']).toBeUndefined();
    expect(stream.headers['etag']).toBeUndefined();
    expect(stream.headers['cache-control']).toContain('no-transform');
    // The hello frame arrives while the response is still open: nothing holds the bytes back.
    const hello = await stream.next((e) => e.event === 'hello');
    expect(hello.id).toMatch(/^\d+/);
    expect(stream.ended).toBe(false);
    await liveHubs.get(s.db)!.beatNow();
    await waitFor(() => stream.comments > 0);
    expect(stream.ended).toBe(false);
  });

  it('pushes an alarm raised, acknowledged and cleared, and the device state it causes, each once', async () => {
    const stream = await open(tokens.oceanic!);
    await stream.next((e) => e.event === 'hello');
    const d = oceanicDevice;
    expect((await ingest(s, d.num, report({ faults: ['E05'] }, minutesAgo(0.1)))).code).toBe(0);
    const raised = await stream.next((e) => e.event === 'alarm' && e.data.deviceId === d.id && e.data.change === 'raised');
    expect(raised.data).toMatchObject({ deviceId: d.id, code: 'E05', severity: expect.any(String), alarmId: expect.any(Number) });
    expect(Number(raised.id)).toBeGreaterThan(0);
    const state = await stream.next((e) => e.event === 'state' && e.data.deviceId === d.id);
    expect(state.data).toEqual({ deviceId: d.id, status: 2 });

    const alarmId = raised.data.alarmId;
    const ack = await s.call({
      method: 'POST',
      url: `${s.base}/deviceModule/alarm/acknowledge`,
      token: tokens.oceanic!,
      payload: { ids: [alarmId] },
    });
    expect(ack.code).toBe(0);
    await stream.next((e) => e.event === 'alarm' && e.data.alarmId === alarmId && e.data.change === 'acked');
    const clear = await s.call({
      method: 'POST',
      url: `${s.base}/deviceModule/alarm/clear`,
      token: tokens.oceanic!,
      payload: { ids: [alarmId] },
    });
    expect(clear.code).toBe(0);
    await stream.next((e) => e.event === 'alarm' && e.data.alarmId === alarmId && e.data.change === 'cleared');
    const ids = stream.events.filter((e) => e.event !== 'hello').map((e) => Number(e.id!.split('.')[0]));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
  });

  it('keeps each console to its scope: another enterprise never, a sub-user only its granted vessels', async () => {
    const [oceanic, polaris, oceanops, admin] = await Promise.all([
      open(tokens.oceanic!),
      open(tokens.polaris!),
      open(tokens.oceanops!),
      open(tokens.admin!),
    ]);
    await Promise.all([oceanic, polaris, oceanops, admin].map((x) => x.next((e) => e.event === 'hello')));
    await toggle(polarisDevice.id);
    await toggle(ungrantedDevice);
    await toggle(grantedDevice);
    // Events of one device reach a console in the order they were written: the last toggle
    // arriving means the earlier ones were handed out (or held back) already.
    await admin.next(isState(grantedDevice));
    await oceanic.next(isState(grantedDevice));
    await oceanops.next(isState(grantedDevice));
    await polaris.next(isState(polarisDevice.id));
    await toggle(polarisDevice.id);
    await polaris.next(isState(polarisDevice.id), 5000, polaris.events.findIndex(isState(polarisDevice.id)) + 1);
    expect(admin.events.some(isState(polarisDevice.id))).toBe(true);
    expect(oceanic.events.some(isState(ungrantedDevice))).toBe(true);
    expect(oceanic.events.some(isState(polarisDevice.id))).toBe(false);
    expect(polaris.events.filter((e) => e.event !== 'hello').every((e) => e.data.deviceId === polarisDevice.id)).toBe(true);
    expect(oceanops.events.some(isState(ungrantedDevice))).toBe(false);
    expect(oceanops.events.some(isState(polarisDevice.id))).toBe(false);
  });

  it('replays exactly what a console missed after Last-Event-ID (header or query), and says reset when it cannot', async () => {
    const first = await open(tokens.oceanic!);
    await first.next((e) => e.event === 'hello');
    await toggle(grantedDevice);
    await first.next(isState(grantedDevice));
    const cursor = first.lastId()!;
    first.close();
    const before = await maxEventId();
    await toggle(grantedDevice);
    await toggle(ungrantedDevice);
    await toggle(polarisDevice.id);
    const missed = await s.db.query<{ id: string }>(
      `SELECT e.id::text AS id FROM live_events e WHERE e.id > $1 AND e.owner_id = (SELECT id FROM users WHERE name = 'oceanic') ORDER BY e.id`,
      [Number(cursor)],
    );
    expect(missed.length).toBe(2);
    expect(await maxEventId()).toBeGreaterThan(before);

    const byHeader = await open(tokens.oceanic!, { lastEventId: cursor });
    await byHeader.next(isState(ungrantedDevice));
    const byQuery = await open(tokens.oceanic!, { query: `&lastEventId=${cursor}` });
    await byQuery.next(isState(ungrantedDevice));
    for (const stream of [byHeader, byQuery]) {
      expect(stream.events.map((e) => e.id!.split('.')[0])).toEqual(missed.map((r) => r.id));
      expect(stream.events.map((e) => e.data.deviceId)).toEqual([grantedDevice, ungrantedDevice]);
    }
    // Nothing missed: a hello carrying the same cursor.
    const nothing = await open(tokens.oceanic!, { lastEventId: byHeader.lastId()! });
    const hello = await nothing.next((e) => e.event === 'hello');
    expect(hello.id).toBe(byHeader.lastId());
    // A cursor the table cannot answer (ahead of it, not ours, or past the replay window): reset.
    for (const lastEventId of [String((await maxEventId()) + 1000), 'not-an-id']) {
      const reset = await open(tokens.oceanic!, { lastEventId });
      const e = await reset.next((x) => x.event !== 'hello');
      expect(e.event).toBe('reset');
      expect(e.id).toMatch(/^\d+/);
    }
    await s.db.query(`UPDATE live_events SET at = now() - interval '2 hours' WHERE id = $1`, [Number(missed[0]!.id)]);
    const stale = await open(tokens.oceanic!, { lastEventId: cursor });
    expect((await stale.next(() => true)).event).toBe('reset');
  });

  it('sends an event whose transaction committed after a newer one, once, and names it in the cursor until then', async () => {
    const stream = await open(tokens.oceanic!);
    await stream.next((e) => e.event === 'hello');
    const ownerId = (await s.db.query<{ owner_id: number }>('SELECT owner_id FROM devices WHERE id = $1', [grantedDevice]))[0]!.owner_id;
    // An id taken first (an open transaction) but written after a later one commits.
    const [late] = await s.db.query<{ id: string }>(`SELECT nextval(pg_get_serial_sequence('live_events', 'id'))::text AS id`);
    await toggle(grantedDevice);
    const newer = await stream.next(isState(grantedDevice));
    expect(newer.id).toBe(`${Number(late!.id) + 1}.${late!.id}`);
    const cursor = newer.id!;
    stream.close();
    // A console that connects while the gap is open: its hello names the missing id.
    const still = await open(tokens.oceanic!);
    expect((await still.next((e) => e.event === 'hello')).id).toBe(cursor);
    // A console that left while the gap was open gets it on resume, and the newer one not again.
    await s.db.query(`INSERT INTO live_events (id, kind, device_id, owner_id, data) VALUES ($1, 'state', $2, $3, '{"status":9}')`, [
      Number(late!.id),
      grantedDevice,
      ownerId,
    ]);
    await s.db.notify('live_events', '');
    const resumed = await open(tokens.oceanic!, { lastEventId: cursor });
    const got = await resumed.next(isState(grantedDevice));
    expect(got).toMatchObject({ id: String(Number(late!.id) + 1), data: { deviceId: grantedDevice, status: 9 } });
    await sleep(200);
    expect(resumed.events.filter((e) => e.event === 'state')).toHaveLength(1);
    // A console connected while the gap was open (its hello names it) gets the late event live, once.
    expect((await still.next(isState(grantedDevice))).data.status).toBe(9);
    expect(still.events.filter((e) => e.event === 'state')).toHaveLength(1);
  });

  it('ends the stream with the code a call would get: logout (5), a login elsewhere (-24), idle (-26)', async () => {
    const tokenA = await s.login('oceanic');
    const kicked = await open(tokenA);
    await kicked.next((e) => e.event === 'hello');
    tokens.oceanic = await s.login('oceanic');
    const end = await kicked.next((e) => e.event === 'end');
    expect(end.data.code).toBe(ErrorCode.LoggedInElsewhere);
    expect(end.data.msg).toBeTruthy();
    await kicked.closed;

    const mine = await open(tokens.oceanic!, { query: '&lang=en' });
    await mine.next((e) => e.event === 'hello');
    expect((await s.call({ method: 'POST', url: `${s.base}/users/logout`, token: tokens.oceanic! })).code).toBe(0);
    expect((await mine.next((e) => e.event === 'end')).data.code).toBe(ErrorCode.TokenInvalid);
    await mine.closed;
    tokens.oceanic = await s.login('oceanic');

    const idle = await open(tokens.polaris!);
    await idle.next((e) => e.event === 'hello');
    await s.db.query(
      `UPDATE sessions SET last_seen_at = now() - interval '3 days' WHERE user_id = (SELECT id FROM users WHERE name = 'polaris') AND ended_at IS NULL`,
    );
    expect((await idle.next((e) => e.event === 'end')).data.code).toBe(ErrorCode.SessionTimeout);
    await idle.closed;
    tokens.polaris = await s.login('polaris');

    // Idle with no notification at all (nobody called since): the heartbeat's check ends it.
    const quiet = await open(tokens.polaris!);
    await quiet.next((e) => e.event === 'hello');
    await s.db.query('ALTER TABLE sessions DISABLE TRIGGER sessions_auth_notify_update');
    try {
      await s.db.query(
        `UPDATE sessions SET last_seen_at = now() - interval '3 days' WHERE user_id = (SELECT id FROM users WHERE name = 'polaris') AND ended_at IS NULL`,
      );
    } finally {
      await s.db.query('ALTER TABLE sessions ENABLE TRIGGER sessions_auth_notify_update');
    }
    await sleep(100);
    expect(quiet.of('end')).toHaveLength(0);
    await liveHubs.get(s.db)!.beatNow();
    expect((await quiet.next((e) => e.event === 'end')).data.code).toBe(ErrorCode.SessionTimeout);
    await quiet.closed;
    tokens.polaris = await s.login('polaris');

    // A stream refused at the start answers the envelope, as every call does.
    const refused = await s.call({ url: `${s.base}/deviceModule/live/events`, token: 'nope' });
    expect(refused.code).toBe(ErrorCode.TokenInvalid);
  });

  it('keeps no session alive: holding the stream open is not activity', async () => {
    const token = tokens.polaris!;
    await s.db.query(
      `UPDATE sessions SET last_seen_at = now() - interval '5 minutes' WHERE user_id = (SELECT id FROM users WHERE name = 'polaris') AND ended_at IS NULL`,
    );
    const stream = await open(token);
    await stream.next((e) => e.event === 'hello');
    const [row] = await s.db.query<{ idle: boolean }>(
      `SELECT last_seen_at < now() - interval '4 minutes' AS idle FROM sessions WHERE user_id = (SELECT id FROM users WHERE name = 'polaris') AND ended_at IS NULL`,
    );
    expect(row!.idle).toBe(true);
  });

  it('prunes live events older than a day with the hourly retention', async () => {
    await s.db.query(
      `UPDATE live_events SET at = now() - interval '25 hours' WHERE id IN (SELECT id FROM live_events ORDER BY id LIMIT 2)`,
    );
    const before = (await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM live_events'))[0]!.n;
    await pruneHistory(s.db);
    const after = (
      await s.db.query<{ n: number; old: number }>(
        `SELECT count(*)::int AS n, count(*) FILTER (WHERE at < now() - interval '24 hours')::int AS old FROM live_events`,
      )
    )[0]!;
    expect(after.old).toBe(0);
    expect(after.n).toBe(before - 2);
  });
});

async function waitFor(check: () => boolean, ms = 5000) {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error('condition not met in time');
    await sleep(20);
  }
}

/** PostgreSQL only: real concurrent transactions, and two replicas on one database. */
describe.skipIf(!engines.includes('postgres'))('live push across transactions and replicas on PostgreSQL', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    // Each replica's embedded MQTT broker on a port of its own (0: any free one).
    const freeBrokerPort = { mqttPort: 0 } as Record<string, unknown> as Partial<ServerConfig>;
    a = await createTestServer('postgres', freeBrokerPort);
    b = await createTestServer('postgres', freeBrokerPort, { shareSchemaOf: a });
  }, 120_000);
  const streams: LiveStream[] = [];
  afterAll(async () => {
    for (const x of streams) x.close();
    await b?.close();
    await a?.close();
  });

  it('an alarm raised through replica A reaches a console connected to replica B', async () => {
    const token = await b.login('oceanic');
    const stream = await openStream(b, token);
    streams.push(stream);
    await stream.next((e) => e.event === 'hello');
    const d = await reportingDevice(a.db, 'oceanic', 2);
    expect((await ingest(a, d.num, report({ faults: ['E07'] }, minutesAgo(0.1)))).code).toBe(0);
    const e = await stream.next((x) => x.event === 'alarm' && x.data.deviceId === d.id);
    expect(e.data).toMatchObject({ code: 'E07', change: 'raised' });
  });

  it('a transaction that took its id first but commits last is still sent, once', async () => {
    const token = await a.login('polaris');
    const stream = await openStream(a, token);
    streams.push(stream);
    await stream.next((e) => e.event === 'hello');
    const [device] = await a.db.query<{ id: number }>(
      `SELECT d.id FROM devices d JOIN users u ON u.id = d.owner_id WHERE u.name = 'polaris' ORDER BY d.id LIMIT 2`,
    );
    const [other] = await a.db.query<{ id: number }>(
      `SELECT d.id FROM devices d JOIN users u ON u.id = d.owner_id WHERE u.name = 'polaris' ORDER BY d.id OFFSET 1 LIMIT 1`,
    );
    const slow = new pg.Client({ connectionString: a.databaseUrl });
    await slow.connect();
    try {
      await slow.query('BEGIN');
      await slow.query('UPDATE devices SET status = CASE WHEN status = 1 THEN 0 ELSE 1 END WHERE id = $1', [device!.id]);
      // A newer id commits (on replica B) while the slow transaction holds the older one.
      await b.db.query('UPDATE devices SET status = CASE WHEN status = 1 THEN 0 ELSE 1 END WHERE id = $1', [other!.id]);
      const newer = await stream.next((e) => e.event === 'state' && e.data.deviceId === other!.id);
      expect(newer.id).toContain('.');
      await slow.query('COMMIT');
    } finally {
      await slow.end();
    }
    const older = await stream.next((e) => e.event === 'state' && e.data.deviceId === device!.id);
    expect(Number(older.id!.split('.')[0])).toBeGreaterThan(0);
    await sleep(300);
    const ids = stream.events.filter((e) => e.event === 'state').map((e) => e.data.deviceId);
    expect(ids).toEqual([other!.id, device!.id]);
  });
});
