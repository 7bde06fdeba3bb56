import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/domain/errorCodes';
import { acknowledgeCommand } from '../../server/modules/commands/delivery';
import { checkGeofences } from '../../server/notify/geofenceCheck';
import { clearSignalAlarms, raiseSignalAlarms } from '../../server/notify/ruleAlarmQueries';
import { createTestServer, engines, type TestServer } from './helpers';
import { ingest, minutesAgo, report, reportingDevice } from './monitoringFixtures';
import { startReceiver, supportCaller, until } from './notifyFixtures';

/**
 * The alarms alarm rules raise besides device faults (docs/api.md, "Notifications"): weak signal
 * for a while, a command that failed, a firmware update that failed, a vessel entering or leaving
 * a geofence. Each is an alarm with the rule's severity, reaches the rule's webhook (a local
 * receiver), and clears when its condition ends. Geofences are an enterprise's own; their arrivals
 * and departures are a vessel's log.
 */
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let hook = '';
/** The notices the webhook got, a digest's one by one. */
const notices = () =>
  receiver.hits.map((h) => JSON.parse(h.raw || '{}')).flatMap((body) => (body.event === 'digest' ? body.notifications : [body]));

beforeAll(async () => {
  receiver = await startReceiver();
  hook = `${receiver.base}/hook`;
});
afterAll(() => receiver?.close());

describe.each(engines)('alarm rule triggers on %s', (engine) => {
  let server: TestServer;
  const tokens: Record<string, string> = {};
  let contactId = 0;
  const call = supportCaller(() => server, tokens);
  const addRule = async (extra: Record<string, unknown>) => {
    const added = await call('oceanic', 'alarmRule/add', {
      enabled: true,
      minSeverity: 'major',
      notifyCleared: true,
      contactPointIds: [contactId],
      ...extra,
    });
    expect(added.code, JSON.stringify(added.data)).toBe(0);
    return added.data.id as number;
  };
  /** Sends a command to a vessel as level 2, and the vessel answers it (ok or failed). */
  const sendCommand = async (v: { id: number; num: string }, kind: string, ok: boolean) => {
    const sent = await server.call({
      method: 'POST',
      url: `${server.base}/deviceModule/command/add`,
      token: tokens.oceanic,
      payload: { deviceId: v.id, kind, params: {} },
    });
    await acknowledgeCommand(server.db, v.num, { id: sent.data.id, ok, message: ok ? undefined : 'failed on board' });
  };
  const openAlarm = async (deviceId: number, code: string) =>
    (
      await server.db.query<{ id: number; severity: string; detail: string | null }>(
        'SELECT id::int AS id, severity, detail FROM alarms WHERE device_id = $1 AND code = $2 AND cleared_at IS NULL',
        [deviceId, code],
      )
    )[0];

  beforeAll(async () => {
    receiver.hits.length = 0;
    server = await createTestServer(engine, { notifyAllowPrivateTargets: true, notifyTickMs: 100, notifyDigestSeconds: 1 });
    for (const name of ['admin', 'oceanic', 'oceanops', 'polaris']) tokens[name] = await server.login(name);
    const contact = await call('oceanic', 'contactPoint/add', {
      name: 'Trigger hook',
      channel: 'webhook',
      target: hook,
      secret: 'trigger-secret',
      language: 'en',
      timeZone: 'UTC',
      enabled: true,
    });
    expect(contact.code).toBe(0);
    contactId = contact.data.id;
  });
  afterAll(async () => server?.close());

  it('refuses a weak-signal trigger without its minutes or threshold, and thresholds out of range, in the caller’s language', async () => {
    const half = await call('oceanic', 'alarmRule/add', {
      name: 'Half',
      minSeverity: 'major',
      contactPointIds: [contactId],
      signalBelow: 20,
    });
    expect(half.code).toBe(ErrorCode.Validation);
    expect(half.data).toEqual([{ field: 'lowMinutes', message: 'A weak-signal trigger needs its minutes and a signal or SNR threshold' }]);
    const wild = await call(
      'oceanic',
      'alarmRule/add',
      { name: 'Wild', minSeverity: 'major', contactPointIds: [contactId], signalBelow: 150, snrBelow: -99, lowMinutes: 5 },
      'zh',
    );
    expect(wild.data).toEqual([
      { field: 'signalBelow', message: '信号强度必须在 0 到 100 之间' },
      { field: 'snrBelow', message: '信噪比必须在 -20 到 50 dB 之间' },
    ]);
  });

  it('raises SIGNAL_LOW with the rule’s severity once the signal has stayed weak for the rule’s minutes, and clears it when it recovers', async () => {
    const v = await reportingDevice(server.db, 'oceanic', 3);
    await addRule({ name: 'Weak link', minSeverity: 'critical', signalBelow: 30, lowMinutes: 10, deviceIds: [v.id] });
    // Good until 14 minutes ago, weak since: only 14 minutes of weakness would not do for a 20-minute rule, but does for 10.
    const reports = [20, 16, 14, 8, 2].map((m) => report({ signalLevel: m > 15 ? 70 : 12.4, snr: 3 }, minutesAgo(m)));
    expect((await ingest(server, v.num, { reports })).code).toBe(0);
    expect(await raiseSignalAlarms(server.db)).toBe(1);
    expect(await raiseSignalAlarms(server.db)).toBe(0);
    expect(await openAlarm(v.id, 'SIGNAL_LOW')).toMatchObject({ severity: 'critical', detail: '12.4 / 3.0 dB' });
    const raised = await until(() => notices().find((n) => n.alarm?.code === 'SIGNAL_LOW' && n.vessel.id === v.id));
    expect(raised.alarm).toMatchObject({ severity: 'critical', text: 'Signal or SNR low for longer than a rule allows: 12.4 / 3.0 dB' });
    // Still weak: nothing clears. Recovered: it clears and the rule tells it.
    expect(await clearSignalAlarms(server.db)).toBe(0);
    expect((await ingest(server, v.num, report({ signalLevel: 80 }))).code).toBe(0);
    expect(await clearSignalAlarms(server.db)).toBe(1);
    await until(() => notices().find((n) => n.event === 'alarm.cleared' && n.alarm.id === raised.alarm.id));
  });

  it('a vessel whose weakness started within the rule’s minutes raises nothing', async () => {
    const v = await reportingDevice(server.db, 'oceanic', 4);
    await addRule({ name: 'Slow SNR', snrBelow: 5, lowMinutes: 30, deviceIds: [v.id] });
    const reports = [40, 20, 5].map((m) => report({ snr: m > 30 ? 11 : 2 }, minutesAgo(m)));
    expect((await ingest(server, v.num, { reports })).code).toBe(0);
    await raiseSignalAlarms(server.db);
    expect(await openAlarm(v.id, 'SIGNAL_LOW')).toBeUndefined();
  });

  it('a command that fails raises CMD_FAILED naming its kind; the vessel’s next command that succeeds clears it', async () => {
    const v = await reportingDevice(server.db, 'oceanic', 5);
    await addRule({ name: 'Commands', codes: ['CMD_FAILED'], minSeverity: 'minor', deviceIds: [v.id] });
    await sendCommand(v, 'reboot', false);
    expect(await openAlarm(v.id, 'CMD_FAILED')).toMatchObject({ severity: 'minor', detail: 'reboot' });
    const zh = await server.call({
      method: 'GET',
      url: `${server.base}/deviceModule/alarm/getAll?pageIndex=1&pageSize=50&deviceId=${v.id}`,
      token: tokens.oceanic,
      lang: 'zh',
    });
    expect(zh.data.list.find((a: any) => a.code === 'CMD_FAILED')).toMatchObject({ meaning: '远程指令失败或超时：重启', active: true });
    await until(() => notices().find((n) => n.alarm?.code === 'CMD_FAILED' && n.vessel.id === v.id));
    await sendCommand(v, 'diagnostics', true);
    expect(await openAlarm(v.id, 'CMD_FAILED')).toBeUndefined();
  });

  it('a command failure on a vessel no rule names the code for raises nothing', async () => {
    const v = await reportingDevice(server.db, 'oceanic', 6);
    await sendCommand(v, 'reboot', false);
    expect(await openAlarm(v.id, 'CMD_FAILED')).toBeUndefined();
  });

  it('a failed firmware update on a vessel raises FW_FAILED with the version; an update that succeeds clears it', async () => {
    const v = await reportingDevice(server.db, 'oceanic', 5);
    await addRule({ name: 'Firmware', codes: ['FW_FAILED'], deviceIds: [v.id] });
    const [pkg] = await server.db.query<{ id: number }>(
      `INSERT INTO firmware_packages (device_type, customer, model, version, file_name, file_size, sha256, storage_key)
       VALUES ('antenna', 'test', 'TEST-MODEL', 'V9.9.9', 'fw.bin', 1, repeat('0', 64), 'test-fw-' || gen_random_uuid()) RETURNING id`,
    );
    const [rollout] = await server.db.query<{ id: number }>(
      'INSERT INTO firmware_rollouts (firmware_id, max_concurrent) VALUES ($1, 1) RETURNING id',
      [pkg!.id],
    );
    await server.db.query(`INSERT INTO firmware_rollout_targets (rollout_id, device_id, state) VALUES ($1, $2, 'updating')`, [
      rollout!.id,
      v.id,
    ]);
    await server.db.query(`UPDATE firmware_rollout_targets SET state = 'failed' WHERE rollout_id = $1`, [rollout!.id]);
    expect(await openAlarm(v.id, 'FW_FAILED')).toMatchObject({ severity: 'major', detail: 'V9.9.9' });
    await server.db.query(`UPDATE firmware_rollout_targets SET state = 'updated' WHERE rollout_id = $1`, [rollout!.id]);
    expect(await openAlarm(v.id, 'FW_FAILED')).toBeUndefined();
  });

  it('geofences are an enterprise’s own, checked on the server; level 3 reads them and draws none', async () => {
    const circle = { name: 'Anchorage A', kind: 'anchorage', shape: 'circle', lat: 1.2, lon: 103.8, radiusM: 2000 };
    const bad = await call(
      'oceanic',
      'geofence/add',
      {
        name: 'Line',
        kind: 'area',
        shape: 'polygon',
        points: [
          [1, 2],
          [1, 3],
        ],
      },
      'zh',
    );
    expect(bad.code).toBe(ErrorCode.Validation);
    expect(bad.data).toEqual([{ field: 'points', message: expect.stringContaining('3') }]);
    const noRadius = await call('oceanic', 'geofence/add', { ...circle, radiusM: 10 });
    expect(noRadius.data).toEqual([{ field: 'radiusM', message: expect.any(String) }]);
    const theirs = await call('polaris', 'geofence/add', { ...circle, name: 'Polaris yard' });
    expect(theirs.code).toBe(0);
    const foreign = await call('oceanic', 'alarmRule/add', {
      name: 'Foreign area',
      minSeverity: 'major',
      contactPointIds: [contactId],
      geofenceIds: [theirs.data.id],
    });
    expect(foreign.data).toEqual([{ field: 'geofenceIds', message: "Must be one of this enterprise's own" }]);
    expect((await call('oceanops', 'geofence/add', circle)).code).toBe(ErrorCode.Forbidden);
    const seen = await call('oceanops', 'geofence/getAll?pageIndex=1&pageSize=50');
    expect(seen.code).toBe(0);
    expect(seen.data.list.map((g: any) => g.name)).not.toContain('Polaris yard');
  });

  it('a vessel entering a watched geofence raises GEOFENCE_IN and an arrival; leaving clears it, records the departure and raises GEOFENCE_OUT', async () => {
    const v = await reportingDevice(server.db, 'oceanic', 7);
    const port = await call('oceanic', 'geofence/add', {
      name: 'Port of Darwin',
      kind: 'port',
      shape: 'polygon',
      points: [
        [-12.5, 130.7],
        [-12.5, 130.9],
        [-12.35, 130.9],
        [-12.35, 130.7],
      ],
    });
    expect(port.code).toBe(0);
    await addRule({ name: 'In port', geofenceIds: [port.data.id], geofenceTrigger: 'enter', minSeverity: 'minor', deviceIds: [v.id] });
    await addRule({ name: 'Left port', geofenceIds: [port.data.id], geofenceTrigger: 'leave', deviceIds: [v.id] });

    expect((await ingest(server, v.num, report({ lat: -12.0, lon: 131.5 }))).code).toBe(0);
    await checkGeofences(server.db);
    // At sea and never in port: neither in nor out.
    expect(await openAlarm(v.id, 'GEOFENCE_IN')).toBeUndefined();
    expect(await openAlarm(v.id, 'GEOFENCE_OUT')).toBeUndefined();

    expect((await ingest(server, v.num, report({ lat: -12.44, lon: 130.8 }))).code).toBe(0);
    expect(await checkGeofences(server.db)).toMatchObject({ arrivals: 1, departures: 0 });
    expect(await openAlarm(v.id, 'GEOFENCE_IN')).toMatchObject({ severity: 'minor', detail: 'Port of Darwin' });
    const entered = await until(() => notices().find((n) => n.alarm?.code === 'GEOFENCE_IN' && n.vessel.id === v.id));
    expect(entered.alarm.text).toBe('Vessel entered a geofence: Port of Darwin');
    // Checked again in port: nothing new.
    expect(await checkGeofences(server.db)).toMatchObject({ arrivals: 0, departures: 0, raised: 0, cleared: 0 });

    expect((await ingest(server, v.num, report({ lat: -12.7, lon: 130.4 }))).code).toBe(0);
    expect(await checkGeofences(server.db)).toMatchObject({ arrivals: 0, departures: 1, raised: 1, cleared: 1 });
    expect(await openAlarm(v.id, 'GEOFENCE_IN')).toBeUndefined();
    expect(await openAlarm(v.id, 'GEOFENCE_OUT')).toMatchObject({ severity: 'major', detail: 'Port of Darwin' });
    await until(() => notices().find((n) => n.alarm?.code === 'GEOFENCE_OUT' && n.vessel.id === v.id));

    const log = await call('oceanic', `geofenceEvent/getAll?pageIndex=1&pageSize=50&deviceId=${v.id}`, undefined, 'zh');
    expect(log.code).toBe(0);
    expect(log.data.list.map((e: any) => [e.event, e.geofenceName, e.geofenceKind])).toEqual([
      ['departure', 'Port of Darwin', 'port'],
      ['arrival', 'Port of Darwin', 'port'],
    ]);
    // Another enterprise sees none of this vessel's port calls.
    const other = await call('polaris', `geofenceEvent/getAll?pageIndex=1&pageSize=50&deviceId=${v.id}`);
    expect(other.data?.list ?? []).toEqual([]);
  });

  it('a vessel going straight from one watched geofence into another is told of the second; a new owner sees none of its old port calls', async () => {
    const v = await reportingDevice(server.db, 'oceanic', 9);
    const square = (name: string, lat: number) =>
      call('oceanic', 'geofence/add', {
        name,
        kind: 'anchorage',
        shape: 'polygon',
        points: [
          [lat, 140],
          [lat, 140.2],
          [lat + 0.1, 140.2],
          [lat + 0.1, 140],
        ],
      });
    const [a, b] = [(await square('Anchorage North', 10.1)).data.id, (await square('Anchorage South', 10)).data.id];
    await addRule({ name: 'North', geofenceIds: [a], deviceIds: [v.id] });
    await addRule({ name: 'South', geofenceIds: [b], deviceIds: [v.id] });
    expect((await ingest(server, v.num, report({ lat: 10.15, lon: 140.1 }))).code).toBe(0);
    await checkGeofences(server.db);
    expect(await openAlarm(v.id, 'GEOFENCE_IN')).toMatchObject({ detail: 'Anchorage North' });
    expect((await ingest(server, v.num, report({ lat: 10.05, lon: 140.1 }))).code).toBe(0);
    expect(await checkGeofences(server.db)).toMatchObject({ arrivals: 1, departures: 1, raised: 1, cleared: 1 });
    expect(await openAlarm(v.id, 'GEOFENCE_IN')).toMatchObject({ detail: 'Anchorage South' });
    await until(() => notices().find((n) => n.alarm?.text === 'Vessel entered a geofence: Anchorage South' && n.vessel.id === v.id));

    const seen = async (who: string) =>
      (await call(who, `geofenceEvent/getAll?pageIndex=1&pageSize=50&deviceId=${v.id}`)).data?.list?.length ?? 0;
    expect(await seen('oceanic')).toBe(3);
    // The vessel moves to another enterprise: its port calls so far stay the old owner's record.
    const [polaris] = await server.db.query<{ id: number }>(`SELECT id FROM users WHERE name = 'polaris'`);
    await server.db.query('UPDATE devices SET owner_id = $2, owner_sub_id = NULL, owner_since = now() WHERE id = $1', [v.id, polaris!.id]);
    expect(await seen('polaris')).toBe(0);
    expect(await seen('admin')).toBe(3);
  });

  it('a user’s own quiet hours hold its alarm mails until their end, in its zone; a bad clock is refused in its language', async () => {
    expect((await call('oceanic', 'notification/quietHours')).data).toEqual({ quietFrom: null, quietTo: null });
    const bad = await call('oceanic', 'notification/quietHours', { quietFrom: '25:00', quietTo: '06:00' }, 'zh');
    expect(bad.code).toBe(ErrorCode.Validation);
    expect(bad.data.map((e: { field: string }) => e.field)).toEqual(['quietFrom']);
    const half = await call('oceanic', 'notification/quietHours', { quietFrom: '22:00' });
    expect(half.data.map((e: { field: string }) => e.field)).toEqual(['quietTo']);
    // Its zone is its last login's (none given here: UTC+8); a window from an hour ago to two hours on.
    const hour = (new Date().getUTCHours() + 8) % 24;
    const clock = (h: number) => `${String((h + 24) % 24).padStart(2, '0')}:00`;
    const window = { quietFrom: clock(hour - 1), quietTo: clock(hour + 2) };
    expect((await call('oceanic', 'notification/quietHours', window)).data).toEqual(window);
    expect((await call('oceanic', 'notification/quietHours')).data).toEqual(window);

    const [me] = await server.db.query<{ id: number }>(`SELECT id FROM users WHERE name = 'oceanic'`);
    const v = await reportingDevice(server.db, 'oceanic', 8);
    await addRule({ name: 'Mail me', codes: ['CMD_FAILED'], contactPointIds: [], userIds: [me!.id], deviceIds: [v.id] });
    await sendCommand(v, 'reboot', false);
    const row = await until(
      async () =>
        (
          await server.db.query<{ nextAt: Date; state: string }>(
            `SELECT next_at AS "nextAt", state FROM notifications WHERE device_id = $1 AND user_id = $2`,
            [v.id, me!.id],
          )
        )[0],
    );
    expect(row.state).toBe('pending');
    // Held to the window's end: between one and two hours on.
    expect(row.nextAt.getTime() - Date.now()).toBeGreaterThan(60 * 60_000);
    expect(row.nextAt.getTime() - Date.now()).toBeLessThanOrEqual(2 * 60 * 60_000);
    await call('oceanic', 'notification/quietHours', { quietFrom: null, quietTo: null });
  });
});
