import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '../../src/domain/errorCodes';
import type { CommandAck, DeviceLink } from '../../server/link/deviceLink';
import { expireCommands } from '../../server/modules/commands';
import { REBOOT_BACK_WITHIN_MIN } from '../../src/domain/commands';
import { createTestServer, engines, type TestServer } from './helpers';
import { vesselIds } from './vesselFixtures';

/**
 * A device link the test drives: which devices are connected, what was published to each, and
 * the connects and acks the server hears.
 */
function fakeLink() {
  const connected = new Set<string>();
  const published: { deviceNum: string; payload: any }[] = [];
  const connectListeners: ((deviceNum: string) => void)[] = [];
  const ackListeners: ((deviceNum: string, ack: CommandAck) => Promise<void>)[] = [];
  let refuse = false;
  const link: DeviceLink = {
    kind: 'none',
    async sendCommand(deviceNum, payload) {
      if (refuse) throw new Error('broker refused');
      published.push({ deviceNum, payload });
    },
    isConnected: (deviceNum) => connected.has(deviceNum),
    onConnect: (listener) => void connectListeners.push(listener),
    onCommandAck: (listener) => void ackListeners.push(listener),
    close: async () => undefined,
  };
  return {
    link,
    published,
    connect(deviceNum: string) {
      connected.add(deviceNum);
      for (const l of connectListeners) l(deviceNum);
    },
    disconnect: (deviceNum: string) => void connected.delete(deviceNum),
    ack: (deviceNum: string, ack: CommandAck) => Promise.all(ackListeners.map((l) => l(deviceNum, ack))),
    refuseSends: (on: boolean) => void (refuse = on),
  };
}

describe.each(engines)('commands to antennas on %s', (engine) => {
  let s: TestServer;
  let device: ReturnType<typeof fakeLink>;
  const tokens: Record<string, string> = {};
  let ids: Awaited<ReturnType<typeof vesselIds>>;
  const nums: Record<number, string> = {};

  beforeAll(async () => {
    device = fakeLink();
    s = await createTestServer(engine, {}, { openLink: async () => device.link });
    for (const name of ['admin', 'oceanic', 'oceanops', 'polaris']) tokens[name] = await s.login(name);
    ids = await vesselIds(s);
    for (const row of await s.db.query<{ id: number; num: string }>('SELECT id, device_num AS num FROM devices WHERE id = ANY($1::int[])', [
      [ids.granted, ids.ungranted, ids.polaris],
    ]))
      nums[row.id] = row.num;
  });
  afterAll(() => s.close());

  const api = <T = any>(path: string, token: string, payload?: object, lang: 'zh' | 'en' = 'en') =>
    s.call<T>({ method: payload ? 'POST' : 'GET', url: `${s.base}/deviceModule/${path}`, token, lang, ...(payload ? { payload } : {}) });
  const send = (token: string, body: object, lang: 'zh' | 'en' = 'en') => api('command/add', token, body, lang);
  const stateOf = async (id: number) =>
    (await s.db.query<{ state: string }>('SELECT state FROM device_commands WHERE id = $1', [id]))[0]!.state;

  it('refuses a bad kind, bad params, an unknown satellite, an interval or deadline out of range, in zh and en, storing nothing', async () => {
    const cases: [object, string, string, string][] = [
      [
        { deviceId: ids.ungranted, kind: 'selfDestruct' },
        'kind',
        'The command must be reboot, re-point, set report interval, diagnostics or firmware check',
        '指令类型必须是重启、重新对星、设置上报间隔、诊断或固件检查之一',
      ],
      [{ deviceId: ids.ungranted, kind: 'repoint', params: {} }, 'params.satellite', 'required', '必填项'],
      [
        { deviceId: ids.ungranted, kind: 'repoint', params: { satellite: 'Sputnik 1' } },
        'params.satellite',
        'Unknown satellite: choose one of the satellites the product knows',
        '未知的卫星：请从系统已知的卫星中选择',
      ],
      [
        { deviceId: ids.ungranted, kind: 'setInterval', params: { seconds: 2 } },
        'params.seconds',
        'The report interval must be a whole number of seconds from 5 to 3600',
        '上报间隔必须是 5 到 3600 秒之间的整数',
      ],
      [
        { deviceId: ids.ungranted, kind: 'setInterval', params: { seconds: 86_400 } },
        'params.seconds',
        'The report interval must be a whole number of seconds from 5 to 3600',
        '上报间隔必须是 5 到 3600 秒之间的整数',
      ],
      [
        { deviceId: ids.ungranted, kind: 'reboot', deadlineMinutes: 2000 },
        'deadlineMinutes',
        'The deadline must be a whole number of minutes from 1 to 1440',
        '有效期必须是 1 到 1440 分钟之间的整数',
      ],
      [{ kind: 'reboot' }, 'deviceId', 'required', '必填项'],
    ];
    const before = (await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_commands'))[0]!.n;
    for (const [body, field, en, zh] of cases) {
      const res = await send(tokens.oceanic!, body);
      expect(res.code, JSON.stringify(body)).toBe(ErrorCode.Validation);
      expect(res.msg).toBe('Invalid input');
      expect(res.data).toContainEqual({ field, message: en });
      expect((await send(tokens.oceanic!, body, 'zh')).data).toContainEqual({ field, message: zh });
    }
    expect((await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_commands'))[0]!.n).toBe(before);
  });

  it("keeps each enterprise to its own vessels: another enterprise's vessel and command are not found", async () => {
    const mine = await send(tokens.oceanic!, { deviceId: ids.ungranted, kind: 'diagnostics' });
    expect(mine.code).toBe(0);
    expect(mine.data).toMatchObject({
      deviceId: ids.ungranted,
      kind: 'diagnostics',
      state: 'queued',
      createdByName: 'oceanic',
      sentAt: null,
    });

    const foreign = await send(tokens.polaris!, { deviceId: ids.ungranted, kind: 'reboot' });
    expect(foreign.code).toBe(ErrorCode.NotFound);
    expect((await api(`command/getById?id=${mine.data.id}`, tokens.polaris!)).code).toBe(ErrorCode.NotFound);
    expect((await api(`command/getAll?deviceId=${ids.ungranted}`, tokens.polaris!)).code).toBe(ErrorCode.NotFound);
    expect((await api(`command/cancel?id=${mine.data.id}`, tokens.polaris!, {})).code).toBe(ErrorCode.NotFound);
    const fleet = await api('command/getAll?pageSize=500', tokens.polaris!);
    expect(fleet.data.list.map((c: any) => c.id)).not.toContain(mine.data.id);
    // The owner and the admin see it, fleet-wide and filtered by vessel, state and kind.
    for (const who of ['oceanic', 'admin']) {
      const list = await api(`command/getAll?deviceId=${ids.ungranted}&state=queued&kind=diagnostics`, tokens[who]!);
      expect(list.data.list.map((c: any) => c.id)).toContain(mine.data.id);
      expect(list.data.total).toBeGreaterThanOrEqual(1);
    }
    expect(
      (await api(`command/getAll?deviceId=${ids.ungranted}&state=acknowledged`, tokens.oceanic!)).data.list.map((c: any) => c.id),
    ).not.toContain(mine.data.id);
  });

  it('lets a sub-user send only to a vessel granted it with canCommand', async () => {
    const body = { deviceId: ids.granted, kind: 'firmwareCheck' };
    expect((await api(`command/canSend?deviceId=${ids.granted}`, tokens.oceanops!)).data).toEqual({ canSend: false });
    const refused = await send(tokens.oceanops!, body);
    expect(refused.code).toBe(ErrorCode.Forbidden);
    expect(refused.msg).toBe('You are not allowed to send commands to this vessel; ask your enterprise administrator');
    expect((await send(tokens.oceanops!, body, 'zh')).msg).toBe('您未被授权向该船舶发送指令，请联系企业管理员');
    // A vessel it cannot see at all is not found, whatever the grant.
    expect((await send(tokens.oceanops!, { deviceId: ids.ungranted, kind: 'reboot' })).code).toBe(ErrorCode.NotFound);

    const subUserId = (await s.db.query<{ id: number }>(`SELECT id FROM users WHERE name = 'oceanops'`))[0]!.id;
    const granted = (await api<number[]>(`subUserGrant/getDeviceIds?subUserId=${subUserId}`, tokens.oceanic!)).data;
    // Commands only on vessels it may see.
    const outside = await api('subUserGrant/set', tokens.oceanic!, { subUserId, deviceIds: granted, commandDeviceIds: [ids.ungranted] });
    expect(outside.code).toBe(ErrorCode.Validation);
    expect(outside.data).toEqual([
      { field: 'commandDeviceIds', message: 'Commands can be allowed only on vessels the sub-user is granted to see' },
    ]);
    expect((await api('subUserGrant/set', tokens.oceanic!, { subUserId, deviceIds: granted, commandDeviceIds: [ids.granted] })).code).toBe(
      0,
    );
    const grants = await api(`subUserGrant/getAll?subUserId=${subUserId}&pageSize=500`, tokens.oceanic!);
    expect(grants.data.list.find((g: any) => g.deviceId === ids.granted).canCommand).toBe(true);
    expect((await api(`subUserGrant/getCommandDeviceIds?subUserId=${subUserId}`, tokens.oceanic!)).data).toEqual([ids.granted]);
    expect((await api(`subUserGrant/getCommandDeviceIds?subUserId=${subUserId}`, tokens.polaris!)).code).toBe(ErrorCode.NotFound);

    expect((await api(`command/canSend?deviceId=${ids.granted}`, tokens.oceanops!)).data).toEqual({ canSend: true });
    const sent = await send(tokens.oceanops!, body);
    expect(sent.code).toBe(0);
    expect(sent.data.createdByName).toBe('oceanops');
    // Re-saving the view grants without commandDeviceIds (the vessel grant dialog) keeps the flag.
    expect((await api('subUserGrant/set', tokens.oceanic!, { subUserId, deviceIds: granted })).code).toBe(0);
    expect((await send(tokens.oceanops!, body)).code).toBe(0);
    // Taking it away refuses again.
    await api('subUserGrant/set', tokens.oceanic!, { subUserId, deviceIds: granted, commandDeviceIds: [] });
    expect((await send(tokens.oceanops!, body)).code).toBe(ErrorCode.Forbidden);
  });

  it('queues a command for an offline device, sends the queue in order when it connects, and follows its ack', async () => {
    const num = nums[ids.ungranted]!;
    await s.db.query(`UPDATE device_commands SET state = 'cancelled' WHERE device_id = $1 AND state IN ('queued', 'sent')`, [
      ids.ungranted,
    ]);
    const first = (await send(tokens.oceanic!, { deviceId: ids.ungranted, kind: 'repoint', params: { satellite: 'Intelsat 39' } })).data;
    const second = (
      await send(tokens.oceanic!, { deviceId: ids.ungranted, kind: 'setInterval', params: { seconds: 30 }, deadlineMinutes: 60 })
    ).data;
    expect([first.state, second.state]).toEqual(['queued', 'queued']);
    expect(device.published.filter((p) => p.deviceNum === num)).toEqual([]);

    device.connect(num);
    await vi.waitFor(async () => expect(await stateOf(second.id)).toBe('sent'));
    const mine = device.published.filter((p) => p.deviceNum === num).map((p) => p.payload);
    expect(mine.map((p) => p.id)).toEqual([first.id, second.id]);
    expect(mine[0]).toMatchObject({ kind: 'repoint', params: { satellite: 'Intelsat 39' } });
    expect(Date.parse(mine[1].deadline) - Date.parse(second.createdAt)).toBe(60 * 60_000);
    const shown = (await api(`command/getById?id=${first.id}`, tokens.oceanic!)).data;
    expect(shown.state).toBe('sent');
    expect(Date.parse(shown.sentAt)).toBeGreaterThanOrEqual(Date.parse(shown.createdAt));

    // Connecting again sends nothing twice.
    device.connect(num);
    await vi.waitFor(async () => expect(device.published.filter((p) => p.deviceNum === num)).toHaveLength(2));

    // Another device's ack for this id changes nothing; this device's does.
    await device.ack(nums[ids.polaris]!, { id: first.id, ok: true });
    expect(await stateOf(first.id)).toBe('sent');
    await device.ack(num, { id: first.id, ok: true, data: { satellite: 'Intelsat 39', elevation: 41.2 } });
    await device.ack(num, { id: second.id, ok: false, message: 'interval not supported by this modem' });
    const acked = (await api(`command/getById?id=${first.id}`, tokens.oceanic!)).data;
    expect(acked).toMatchObject({ state: 'acknowledged', result: { satellite: 'Intelsat 39', elevation: 41.2 } });
    expect(acked.ackedAt).not.toBeNull();
    expect((await api(`command/getById?id=${second.id}`, tokens.oceanic!)).data).toMatchObject({
      state: 'failed',
      message: 'interval not supported by this modem',
    });
    // A repeated ack does not reopen or change it.
    await device.ack(num, { id: second.id, ok: true });
    expect(await stateOf(second.id)).toBe('failed');
    device.disconnect(num);
  });

  it('sends at once to a connected device, and leaves a command queued when the broker refuses it', async () => {
    const num = nums[ids.granted]!;
    device.connect(num);
    const now = (await send(tokens.oceanic!, { deviceId: ids.granted, kind: 'reboot' })).data;
    expect(now.state).toBe('sent');
    // Sent before the answer came back; the connect's delivery of older queued commands may publish after it.
    expect(device.published.find((p) => p.payload.id === now.id)).toMatchObject({
      deviceNum: num,
      payload: { id: now.id, kind: 'reboot', params: {} },
    });

    device.refuseSends(true);
    const refused = (await send(tokens.oceanic!, { deviceId: ids.granted, kind: 'diagnostics' })).data;
    expect(refused.state).toBe('queued');
    device.refuseSends(false);
    device.connect(num);
    await vi.waitFor(async () => expect(await stateOf(refused.id)).toBe('sent'));
    device.disconnect(num);
  });

  it("answers a command's settled state when the device's connect delivery claims it first", async () => {
    const num = nums[ids.granted]!;
    device.refuseSends(true);
    try {
      device.connect(num);
      // Commands created one after another across the connect's gathering window: one of them is
      // claimed by the connect's delivery, not its own, and must not be answered "sent" while that
      // delivery is still trying it.
      const answers = [];
      for (let i = 0; i < 12; i += 1) answers.push(await send(tokens.oceanic!, { deviceId: ids.granted, kind: 'diagnostics' }));
      expect(answers.map((a) => a.data.state)).toEqual(Array(12).fill('queued'));
      for (const a of answers) expect(await stateOf(a.data.id)).toBe('queued');
    } finally {
      device.refuseSends(false);
      device.disconnect(num);
    }
  });

  it('expires open commands past their deadline and ignores an ack after it', async () => {
    const num = nums[ids.polaris]!;
    const queued = (await send(tokens.polaris!, { deviceId: ids.polaris, kind: 'diagnostics', deadlineMinutes: 1 })).data;
    device.connect(num);
    await vi.waitFor(async () => expect(await stateOf(queued.id)).toBe('sent'));
    device.disconnect(num);
    const later = (await send(tokens.polaris!, { deviceId: ids.polaris, kind: 'firmwareCheck', deadlineMinutes: 1 })).data;
    await s.db.query(`UPDATE device_commands SET deadline = now() - interval '1 second' WHERE id = ANY($1::int[])`, [
      [queued.id, later.id],
    ]);
    // Before the sweep an ack past the deadline already counts for nothing, and a connect sends nothing.
    await device.ack(num, { id: queued.id, ok: true });
    expect(await stateOf(queued.id)).toBe('sent');
    expect(await expireCommands(s.db)).toBeGreaterThanOrEqual(2);
    expect([await stateOf(queued.id), await stateOf(later.id)]).toEqual(['expired', 'expired']);
    await device.ack(num, { id: queued.id, ok: true });
    expect(await stateOf(queued.id)).toBe('expired');
    const sentBefore = device.published.length;
    device.connect(num);
    await new Promise((r) => setTimeout(r, 50));
    expect(device.published.length).toBe(sentBefore);
    device.disconnect(num);
    expect((await api(`command/getAll?state=expired&deviceId=${ids.polaris}`, tokens.polaris!)).data.list.map((c: any) => c.id)).toEqual(
      expect.arrayContaining([queued.id, later.id]),
    );
  });

  it('fails a reboot whose vessel is not back within REBOOT_BACK_WITHIN_MIN of its ack, and completes one whose vessel connects again', async () => {
    const num = nums[ids.polaris]!;
    device.connect(num);
    const lost = (await send(tokens.polaris!, { deviceId: ids.polaris, kind: 'reboot' })).data;
    await vi.waitFor(async () => expect(await stateOf(lost.id)).toBe('sent'));
    await device.ack(num, { id: lost.id, ok: true, data: { downForS: 40 } });
    device.disconnect(num);
    expect(await stateOf(lost.id)).toBe('acknowledged');
    // Backdated and swept in one transaction: a connect batch still in flight (it completes reboots
    // acked before its connect) cannot take the backdated reboot for one that came back.
    await s.db.transaction(async (tx) => {
      await tx.query(`UPDATE device_commands SET acked_at = now() - make_interval(mins => $2) WHERE id = $1`, [
        lost.id,
        REBOOT_BACK_WITHIN_MIN + 1,
      ]);
      await expireCommands(tx);
    });
    const failed = (await api(`command/getById?id=${lost.id}`, tokens.polaris!)).data;
    expect(failed).toMatchObject({ state: 'failed', result: { downForS: 40, reason: 'notBack' }, doneAt: null });

    device.connect(num);
    const back = (await send(tokens.polaris!, { deviceId: ids.polaris, kind: 'reboot' })).data;
    await vi.waitFor(async () => expect(await stateOf(back.id)).toBe('sent'));
    await device.ack(num, { id: back.id, ok: true });
    device.disconnect(num);
    await expireCommands(s.db);
    expect(await stateOf(back.id)).toBe('acknowledged');
    device.connect(num);
    await vi.waitFor(async () => expect(await stateOf(back.id)).toBe('done'));
    device.disconnect(num);
  });

  it('cancels a queued command only', async () => {
    const queued = (await send(tokens.oceanic!, { deviceId: ids.ungranted, kind: 'reboot' })).data;
    const cancelled = await api(`command/cancel?id=${queued.id}`, tokens.oceanic!, {});
    expect(cancelled.data.state).toBe('cancelled');
    const again = await api(`command/cancel?id=${queued.id}`, tokens.oceanic!, {}, 'zh');
    expect(again.code).toBe(ErrorCode.BadRequest);
    expect(again.msg).toBe('只能取消仍在排队的指令');
    // A cancelled command is not sent when the device connects.
    device.connect(nums[ids.ungranted]!);
    await new Promise((r) => setTimeout(r, 50));
    expect(device.published.some((p) => p.payload.id === queued.id)).toBe(false);
    device.disconnect(nums[ids.ungranted]!);
  });

  it('records the command in the audit log and writes a live event for each of its states', async () => {
    await s.db.query(`UPDATE device_commands SET state = 'cancelled' WHERE device_id = $1 AND state IN ('queued', 'sent')`, [
      ids.ungranted,
    ]);
    const created = (await send(tokens.oceanic!, { deviceId: ids.ungranted, kind: 'repoint', params: { satellite: 'AsiaSat 7' } })).data;
    const [entry] = await s.db.query<any>(
      `SELECT user_name, entity, entity_id, action, after FROM audit_log WHERE entity = 'command' AND entity_id = $1`,
      [String(created.id)],
    );
    expect(entry).toMatchObject({ user_name: 'oceanic', entity: 'command', action: 'add' });
    const after = typeof entry.after === 'string' ? JSON.parse(entry.after) : entry.after;
    expect(after).toMatchObject({ id: created.id, kind: 'repoint', params: { satellite: 'AsiaSat 7' }, state: 'queued' });
    const log = await api(`../supportModule/auditLog/getAll?entity=command&entityId=${created.id}`, tokens.oceanic!);
    expect(log.data.list[0]).toMatchObject({ entity: 'command', action: 'add', route: '/deviceModule/command/add' });

    device.connect(nums[ids.ungranted]!);
    await vi.waitFor(async () => expect(await stateOf(created.id)).toBe('sent'));
    await device.ack(nums[ids.ungranted]!, { id: created.id, ok: true });
    device.disconnect(nums[ids.ungranted]!);
    const events = await s.db.query<{ device_id: number; owner_id: number; data: any }>(
      `SELECT device_id, owner_id, data FROM live_events WHERE kind = 'command' AND (data->>'commandId')::int = $1 ORDER BY id`,
      [created.id],
    );
    const owner = (await s.db.query<{ owner_id: number }>('SELECT owner_id FROM devices WHERE id = $1', [ids.ungranted]))[0]!.owner_id;
    expect(events.map((e) => e.data.state)).toEqual(['queued', 'sent', 'acknowledged']);
    expect(events[0]).toMatchObject({
      device_id: ids.ungranted,
      owner_id: owner,
      data: { commandId: created.id, kind: 'repoint', state: 'queued' },
    });
  });
});

describe.runIf(engines.includes('postgres'))('commands with two replicas on one PostgreSQL', () => {
  it('publishes each queued command once when both replicas hear the device connect', async () => {
    const one = fakeLink();
    const two = fakeLink();
    const a = await createTestServer('postgres', {}, { openLink: async () => one.link });
    const b = await createTestServer('postgres', {}, { shareSchemaOf: a, openLink: async () => two.link });
    try {
      const ids = await vesselIds(a);
      const [{ num }] = (await a.db.query<{ num: string }>('SELECT device_num AS num FROM devices WHERE id = $1', [ids.ungranted])) as [
        { num: string },
      ];
      const token = await a.login('oceanic');
      const created: number[] = [];
      for (let i = 0; i < 20; i += 1) {
        const res = await a.call({
          method: 'POST',
          url: `${a.base}/deviceModule/command/add`,
          token,
          payload: { deviceId: ids.ungranted, kind: 'diagnostics' },
        });
        created.push(res.data.id);
      }
      one.connect(num);
      two.connect(num);
      await vi.waitFor(async () => {
        const [{ n }] = (await a.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM device_commands WHERE id = ANY($1::int[]) AND state = 'sent'`,
          [created],
        )) as [{ n: number }];
        expect(n).toBe(created.length);
      });
      const published = [...one.published, ...two.published].map((p) => p.payload.id).sort((x, y) => x - y);
      expect(published).toEqual(created);
    } finally {
      await b.close();
      await a.close();
    }
  });
});
