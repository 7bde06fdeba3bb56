import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/domain/errorCodes';
import { signAckToken } from '../../server/notify/ackLinks';
import { raiseOfflineAlarms } from '../../server/notify/ruleAlarmQueries';
import { createTestServer, demoIds, engines, type TestServer } from './helpers';
import { grantedAndUngranted, ingest, report, reportingDevice } from './monitoringFixtures';
import { supportCaller, until } from './notifyFixtures';

/**
 * Alarm notifications end to end (docs/api.md, "Notifications"): a device's fault report raises an
 * alarm, the alarm's rule sends it to a real SMTP server and to local HTTP receivers that check the
 * formats; the delivery log records it; the acknowledge link works once; a receiver that fails is
 * retried with the same idempotency key; a storm reaches each recipient as a few digests.
 */
interface Hit {
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: any;
  raw: string;
}
const hits: Hit[] = [];
const mails: ParsedMail[] = [];
/** Answers still to fail, by path. */
const failures = new Map<string, number>();
let receiver: Server;
let smtp: SMTPServer;
let base = '';
let smtpPort = 0;

const WEBHOOK_SECRET = 'webhook-secret-1';
const DING_SECRET = 'SECdingtalk-secret';
const hmac = (key: string, text: string, encoding: 'hex' | 'base64') => createHmac('sha256', key).update(text).digest(encoding);

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      hits.push({ path: url.pathname, query: url.searchParams, headers: req.headers, body: JSON.parse(raw || '{}'), raw });
      const left = failures.get(url.pathname) ?? 0;
      if (left > 0) {
        failures.set(url.pathname, left - 1);
        return res.writeHead(503).end('down');
      }
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(url.pathname.startsWith('/ding') ? '{"errcode":0,"errmsg":"ok"}' : '{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData: (stream, _session, callback) => {
      simpleParser(stream)
        .then((mail) => mails.push(mail))
        .then(() => callback(), callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => receiver?.close(resolve));
  await new Promise<void>((resolve) => smtp?.close(() => resolve()));
});

/** The notices a receiver path got, a digest's one by one. */
const noticesAt = (path: string): any[] =>
  hits.filter((h) => h.path === path).flatMap((h) => (h.body.event === 'digest' ? h.body.notifications : [h.body]));

describe.each(engines)('alarm notifications on %s', (engine) => {
  let server: TestServer;
  const tokens: Record<string, string> = {};
  let ids: Record<string, number> = {};
  let vessel: { id: number; num: string };
  const contacts: Record<string, number> = {};
  const call = supportCaller(() => server, tokens);
  const rule = (extra: Record<string, unknown>) => ({ name: 'Rule', enabled: true, minSeverity: 'major', notifyCleared: true, ...extra });
  const addContact = async (name: string, fields: Record<string, unknown>) => {
    const added = await call('oceanic', 'contactPoint/add', { name, language: 'en', timeZone: 'Asia/Shanghai', enabled: true, ...fields });
    expect(added.code).toBe(0);
    contacts[name] = added.data.id;
  };
  const logOf = async (who: string, query: string) => (await call(who, `notification/getAll?pageIndex=1&pageSize=100&${query}`)).data;

  beforeAll(async () => {
    // Each engine's server starts with empty receivers (its links are signed with its own secret).
    hits.length = 0;
    mails.length = 0;
    server = await createTestServer(engine, {
      notifyAllowPrivateTargets: true,
      notifyTickMs: 100,
      notifyRetryBaseMs: 100,
      notifyRetryMaxMs: 300,
      notifyMaxAttempts: 3,
      notifyDigestSeconds: 3,
      publicUrl: 'https://fleet.example.com',
    });
    for (const name of ['admin', 'oceanic', 'oceanops', 'polaris']) tokens[name] = await server.login(name);
    ids = await demoIds(server);
    vessel = await reportingDevice(server.db, 'oceanic');
    const mail = await call('admin', 'mailServer/add', {
      name: 'Office',
      host: '127.0.0.1',
      port: smtpPort,
      secure: false,
      fromAddress: 'alarms@fleet.example.com',
      enabled: true,
    });
    expect(mail.code).toBe(0);
    await addContact('Duty mail', { channel: 'email', target: 'duty@example.com', language: 'zh', timeZone: 'Asia/Shanghai' });
    await addContact('Ops webhook', { channel: 'webhook', target: `${base}/hook`, secret: WEBHOOK_SECRET, timeZone: 'Europe/London' });
    await addContact('Ding robot', { channel: 'dingtalk', target: `${base}/ding?access_token=abc`, secret: DING_SECRET, language: 'zh' });
  });
  afterAll(async () => server?.close());

  it('a rule names only its own enterprise: vessels, contact points and recipients are checked on the server', async () => {
    const [foreignVessel] = await server.db.query<{ id: number }>('SELECT id FROM devices WHERE owner_id = $1 LIMIT 1', [ids.polaris]);
    const foreign = await call(
      'oceanic',
      'alarmRule/add',
      rule({ deviceIds: [foreignVessel!.id], contactPointIds: [contacts['Ops webhook']] }),
    );
    expect(foreign.code).toBe(ErrorCode.Validation);
    expect(foreign.data).toEqual([{ field: 'deviceIds', message: "Must be one of this enterprise's own" }]);
    const theirs = await call('polaris', 'alarmRule/add', rule({ contactPointIds: [contacts['Ops webhook']] }), 'zh');
    expect(theirs.data).toEqual([{ field: 'contactPointIds', message: '只能选择本企业自己的' }]);
    const otherUser = await call('oceanic', 'alarmRule/add', rule({ userIds: [ids.polarisops] }));
    expect(otherUser.data).toEqual([{ field: 'userIds', message: "Must be one of this enterprise's own" }]);
    const nobody = await call('oceanic', 'alarmRule/add', rule({ contactPointIds: [] }));
    expect(nobody.data).toEqual([{ field: 'contactPointIds', message: 'Choose at least one contact point or user to notify' }]);
    const bad = await call('oceanic', 'alarmRule/add', rule({ codes: ['NOPE'], minSeverity: 'huge', contactPointIds: [1.5] }));
    expect(bad.code).toBe(ErrorCode.Validation);
    expect((bad.data as { field: string }[]).map((e) => e.field).sort()).toEqual(['codes[0]', 'contactPointIds[0]', 'minSeverity']);
    // Level 3 reads its enterprise's rules and writes none.
    expect((await call('oceanops', 'alarmRule/add', rule({ contactPointIds: [contacts['Ops webhook']] }))).code).toBe(ErrorCode.Forbidden);
    expect((await call('oceanops', 'alarmRule/getAll')).code).toBe(0);
  });

  it('a fault report reaches the mail server, the webhook and the robot, each in its format, and the delivery log says so', async () => {
    const added = await call(
      'oceanic',
      'alarmRule/add',
      rule({
        name: 'E01 on the test vessel',
        codes: ['E01'],
        deviceIds: [vessel.id],
        contactPointIds: [contacts['Duty mail'], contacts['Ops webhook'], contacts['Ding robot']],
      }),
    );
    expect(added.code).toBe(0);
    expect((await ingest(server, vessel.num, report({ faults: ['E01'] }))).code).toBe(0);

    const hook = await until(() => hits.find((h) => h.path === '/hook' && h.body.alarm?.code === 'E01'));
    expect(hook.headers['x-fleet-signature']).toBe(`sha256=${hmac(WEBHOOK_SECRET, hook.raw, 'hex')}`);
    expect(hook.headers['idempotency-key']).toBe(hook.body.id);
    expect(hook.body).toMatchObject({
      event: 'alarm.raised',
      alarm: { code: 'E01', severity: 'critical', text: 'Antenna mainboard initialisation failed' },
      vessel: { id: vessel.id },
      position: { lat: 22.3, lon: 114.2 },
      link: `https://fleet.example.com/device/deviceDataDetail?id=${vessel.id}`,
    });
    expect(hook.body.occurredAt).toMatch(/Z$/);

    const ding = await until(() => hits.find((h) => h.path === '/ding'));
    const timestamp = Number(ding.query.get('timestamp'));
    expect(ding.query.get('sign')).toBe(hmac(DING_SECRET, `${timestamp}\n${DING_SECRET}`, 'base64'));
    expect(ding.body.msgtype).toBe('markdown');
    expect(ding.body.markdown.text).toContain('天线主板初始化失败');

    const mail = await until(() => mails.find((m) => m.subject?.includes('E01') || m.text?.includes('E01')));
    expect(mail.from?.text).toContain('alarms@fleet.example.com');
    expect(mail.subject).toMatch(/^\[紧急\] 告警: /);
    expect(mail.text).toMatch(/时间: \d{4}-\d{2}-\d{2} \d{2}:\d{2} \(UTC\+08:00\)/);
    expect(mail.html).toContain('supportModule/notification/acknowledge?token=');

    const alarmId = hook.body.alarm.id as number;
    const log = await until(async () => {
      // The demo's rule (its contact point disabled) matched too: its row is held.
      const list = (await logOf('oceanic', `alarmId=${alarmId}`)).list.filter((r: any) => r.ruleName === 'E01 on the test vessel');
      return list.length === 3 && list.every((r: any) => r.state === 'sent') ? { list } : null;
    });
    expect(log.list.map((r: any) => r.channel).sort()).toEqual(['dingtalk', 'email', 'webhook']);
    for (const row of log.list)
      expect(row).toMatchObject({ attempts: 1, alarmCode: 'E01', ruleName: 'E01 on the test vessel', deviceId: vessel.id });
    expect(log.list.every((r: any) => r.latencyMs >= 0)).toBe(true);
    // Another enterprise sees none of it; the vessel's sub-user with a grant does.
    expect((await logOf('polaris', `alarmId=${alarmId}`)).list).toHaveLength(0);

    // The fault goes away: a clear is sent (notifyCleared), to the same receivers.
    expect((await ingest(server, vessel.num, report({ faults: [] }, new Date(Date.now() + 1000)))).code).toBe(0);
    const cleared = await until(() =>
      hits.find((h) => h.path === '/hook' && h.body.event === 'alarm.cleared' && h.body.alarm.id === alarmId),
    );
    expect(cleared.body.acknowledgeLink).toBeUndefined();
  });

  it('the acknowledge link: a page with a button, then once as the contact point’s owner, in the audit log; used or forged links say so', async () => {
    const hook = hits.find((h) => h.path === '/hook' && h.body.event === 'alarm.raised' && h.body.alarm?.code === 'E01')!;
    const link = new URL(hook.body.acknowledgeLink as string);
    const path = `${link.pathname}${link.search}`;
    const page = await server.app.inject({ url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('<form method="post">');
    const [before] = await server.db.query<{ acked_at: Date | null }>('SELECT acked_at FROM alarms WHERE id = $1', [hook.body.alarm.id]);
    expect(before!.acked_at).toBeNull();

    const token = link.searchParams.get('token')!;
    const post = (t: string) =>
      server.app.inject({
        method: 'POST',
        url: link.pathname,
        payload: `token=${encodeURIComponent(t)}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en' },
      });
    const done = await post(token);
    expect(done.body).toContain('is acknowledged as oceanic');
    const [after] = await server.db.query<{ acked_by: number }>('SELECT acked_by FROM alarms WHERE id = $1', [hook.body.alarm.id]);
    expect(after!.acked_by).toBe(ids.oceanic);
    const audit = await server.db.query<{ user_name: string; action: string }>(
      `SELECT user_name, action FROM audit_log WHERE entity = 'alarm' AND entity_id = $1`,
      [String(hook.body.alarm.id)],
    );
    expect(audit).toEqual([{ user_name: 'oceanic', action: 'acknowledge' }]);
    expect((await post(token)).body).toContain('This link was already used.');
    expect((await post(`${token.slice(0, -2)}xx`)).body).toContain('This link is not valid.');
    const [secret] = await server.db.query<{ value: string }>(`SELECT value FROM server_secrets WHERE name = 'ack-link'`);
    const [row] = await server.db.query<{ id: number }>(`SELECT id::int FROM notifications WHERE channel = 'email' LIMIT 1`);
    const expired = signAckToken(secret!.value, row!.id, new Date(Date.now() - 1000));
    // The mail's contact point reads Chinese: its page does too.
    expect((await post(expired)).body).toContain('链接已过期');
  });

  it('a user is told by mail in the language and time zone of its last login, and its link acknowledges as that user', async () => {
    await server.db.query(`UPDATE users SET email = 'ops@oceanic.example' WHERE id = $1`, [ids.oceanops]);
    // The console sends its UTC offset with the login; the language is the request's.
    const login = await server.app.inject({
      method: 'POST',
      url: `${server.base}/users/login`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en' },
      payload: new URLSearchParams({ name: 'oceanops', password: 'oceanops123', timeZone: '-5' }).toString(),
    });
    expect(login.json().code).toBe(0);
    tokens.oceanops = login.json().data.token;
    expect((await call('oceanic', 'alarmRule/add', rule({ name: 'E08 by mail', codes: ['E08'], userIds: [ids.oceanops] }))).code).toBe(0);
    expect((await ingest(server, vessel.num, report({ faults: ['E08'] }, new Date(Date.now() + 1500)))).code).toBe(0);
    const mail = await until(() => mails.find((m) => (m.to as { text: string } | undefined)?.text === 'ops@oceanic.example'));
    expect(mail.subject).toMatch(/^\[\w+\] Alarm: /);
    expect(mail.text).toMatch(/Time: \d{4}-\d{2}-\d{2} \d{2}:\d{2} \(UTC-05:00\)/);
    const row = await until(async () => (await logOf('oceanic', 'search=oceanops')).list.find((r: any) => r.state === 'sent'));
    expect(row).toMatchObject({ channel: 'email', recipientName: 'oceanops', ruleName: 'E08 by mail' });
    const link = new URL(/https:\/\/fleet\.example\.com\S+acknowledge\?token=[\w.-]+/.exec(mail.text ?? '')![0]);
    const done = await server.app.inject({
      method: 'POST',
      url: link.pathname,
      payload: `token=${link.searchParams.get('token')}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(done.body).toContain('is acknowledged as oceanops');
    const [alarm] = await server.db.query<{ acked_by: number }>(`SELECT acked_by FROM alarms WHERE device_id = $1 AND code = 'E08'`, [
      vessel.id,
    ]);
    expect(alarm!.acked_by).toBe(ids.oceanops);
  });

  it('a sub-user subscribes itself to a rule covering a vessel it was granted, and is told of those vessels only', async () => {
    const { granted, ungranted } = await grantedAndUngranted(server.db);
    const onGranted = await call(
      'oceanic',
      'alarmRule/add',
      rule({ name: 'E11 fleet', codes: ['E11'], contactPointIds: [contacts['Ops webhook']] }),
    );
    const elsewhere = await call(
      'oceanic',
      'alarmRule/add',
      rule({ name: 'E11 elsewhere', codes: ['E11'], deviceIds: [ungranted], contactPointIds: [contacts['Ops webhook']] }),
    );
    const subscribe = (id: number, subscribed: boolean, who = 'oceanops') =>
      call(who, `alarmRule/subscribe?id=${id}&subscribed=${subscribed}`, {});
    expect((await subscribe(elsewhere.data.id, true)).code).toBe(ErrorCode.NotFound);
    expect((await subscribe(onGranted.data.id, true, 'oceanic')).code).toBe(ErrorCode.Forbidden);
    expect((await subscribe(onGranted.data.id, true)).data).toEqual({ id: onGranted.data.id, subscribed: true });
    expect((await call('oceanops', `alarmRule/getById?id=${onGranted.data.id}`)).data.userIds).toEqual([ids.oceanops]);
    await server.db.query(
      `INSERT INTO alarms (device_id, code, severity, raised_at, last_seen_at) VALUES ($1, 'E11', 'minor', now(), now()), ($2, 'E11', 'minor', now(), now())`,
      [granted, ungranted],
    );
    const told = await until(async () => {
      const list = (await logOf('oceanic', 'search=E11 fleet')).list;
      return list.length >= 2 ? list : null;
    });
    // The webhook hears of both vessels; the sub-user of the granted one only.
    expect(told.filter((r: any) => r.recipientName === 'oceanops').map((r: any) => r.deviceId)).toEqual([granted]);
    expect(
      told
        .filter((r: any) => r.recipientName === 'Ops webhook')
        .map((r: any) => r.deviceId)
        .sort(),
    ).toEqual([granted, ungranted].sort());
    expect((await subscribe(onGranted.data.id, false)).code).toBe(0);
    expect((await call('oceanops', `alarmRule/getById?id=${onGranted.data.id}`)).data.userIds).toEqual([]);
  });

  it("quiet hours hold what is not critical until their end, in the contact point's zone; critical goes at once", async () => {
    const hhmm = (d: Date) => d.toISOString().slice(11, 16);
    const now = new Date();
    const quiet = {
      quietFrom: hhmm(new Date(now.getTime() - 3_600_000)),
      quietTo: hhmm(new Date(now.getTime() + 3_600_000)),
      timeZone: 'UTC',
    };
    const half = await call('oceanic', 'contactPoint/add', {
      name: 'Half quiet',
      channel: 'webhook',
      target: `${base}/quiet`,
      secret: 'x',
      language: 'en',
      timeZone: 'UTC',
      quietFrom: '22:00',
    });
    expect(half.data).toEqual([{ field: 'quietTo', message: 'Give both the start and the end of the quiet hours, and not the same time' }]);
    await addContact('Quiet hook', { channel: 'webhook', target: `${base}/quiet`, secret: WEBHOOK_SECRET, ...quiet });
    expect(
      (await call('oceanic', 'alarmRule/add', rule({ name: 'Quiet', codes: ['E12', 'E90'], contactPointIds: [contacts['Quiet hook']] })))
        .code,
    ).toBe(0);
    const [other] = await server.db.query<{ id: number }>(
      'SELECT id FROM devices WHERE owner_id = $1 AND id <> $2 ORDER BY id DESC LIMIT 1',
      [ids.oceanic, vessel.id],
    );
    await server.db.query(
      `INSERT INTO alarms (device_id, code, severity, raised_at, last_seen_at) VALUES ($1, 'E12', 'major', now(), now()), ($1, 'E90', 'critical', now(), now())`,
      [other!.id],
    );
    await until(() => hits.find((h) => h.path === '/quiet' && h.body.alarm?.code === 'E90'));
    const [held] = await server.db.query<{ state: string; wait: number }>(
      `SELECT n.state, extract(epoch FROM n.next_at - now())::int AS wait FROM notifications n JOIN alarms a ON a.id = n.alarm_id
        WHERE n.recipient_name = 'Quiet hook' AND a.code = 'E12'`,
    );
    expect(held!.state).toBe('pending');
    expect(held!.wait).toBeGreaterThan(50 * 60);
    expect(hits.some((h) => h.path === '/quiet' && h.body.alarm?.code === 'E12')).toBe(false);
  });

  it('a rule with offlineMinutes raises an offline alarm for a silent vessel and tells it; the next report clears it', async () => {
    const silent = await reportingDevice(server.db, 'oceanic', 2);
    expect((await ingest(server, silent.num, report({}, new Date(Date.now() - 20 * 60_000)))).code).toBe(0);
    expect(
      (
        await call(
          'oceanic',
          'alarmRule/add',
          rule({ name: 'Silent', codes: ['E11'], offlineMinutes: 15, deviceIds: [silent.id], contactPointIds: [contacts['Ops webhook']] }),
        )
      ).code,
    ).toBe(0);
    expect(await raiseOfflineAlarms(server.db)).toBe(1);
    // Once: the alarm stays open while the vessel is silent.
    expect(await raiseOfflineAlarms(server.db)).toBe(0);
    const raised = await until(() => noticesAt('/hook').find((n) => n.alarm.code === 'OFFLINE' && n.vessel.id === silent.id));
    expect(raised.alarm).toMatchObject({ severity: 'major', text: 'Vessel silent longer than an alarm rule allows' });
    expect((await ingest(server, silent.num, report({}))).code).toBe(0);
    await until(() => noticesAt('/hook').find((n) => n.event === 'alarm.cleared' && n.alarm.id === raised.alarm.id));
  });

  it('a receiver that fails is retried with the same idempotency key until it answers; one that never does ends failed', async () => {
    await addContact('Flaky hook', { channel: 'webhook', target: `${base}/flaky`, secret: WEBHOOK_SECRET });
    await addContact('Dead hook', { channel: 'webhook', target: `${base}/dead`, secret: WEBHOOK_SECRET });
    failures.set('/flaky', 2);
    failures.set('/dead', 1000);
    expect(
      (
        await call(
          'oceanic',
          'alarmRule/add',
          rule({ name: 'E02', codes: ['E02'], contactPointIds: [contacts['Flaky hook'], contacts['Dead hook']] }),
        )
      ).code,
    ).toBe(0);
    expect((await ingest(server, vessel.num, report({ faults: ['E02'] }, new Date(Date.now() + 2000)))).code).toBe(0);
    const rows = await until(async () => {
      const list = (await logOf('oceanic', 'search=hook')).list.filter((r: any) => r.ruleName === 'E02' && r.event === 'raised');
      return list.length === 2 && list.every((r: any) => r.state === 'sent' || r.state === 'failed') ? list : null;
    });
    const flaky = rows.find((r: any) => r.recipientName === 'Flaky hook');
    const dead = rows.find((r: any) => r.recipientName === 'Dead hook');
    expect(flaky).toMatchObject({ state: 'sent', attempts: 3 });
    expect(dead).toMatchObject({ state: 'failed', attempts: 3, lastError: 'HTTP 503' });
    const keys = hits.filter((h) => h.path === '/flaky').map((h) => h.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect((await logOf('oceanic', 'state=failed')).list.map((r: any) => r.recipientName)).toContain('Dead hook');
  });

  it('a storm reaches each recipient as at most 3 messages that list every alarm, none lost', async () => {
    await addContact('Storm hook', { channel: 'webhook', target: `${base}/storm`, secret: WEBHOOK_SECRET });
    expect(
      (
        await call(
          'oceanic',
          'alarmRule/add',
          rule({ name: 'Everything', minSeverity: 'minor', contactPointIds: [contacts['Storm hook']] }),
        )
      ).code,
    ).toBe(0);
    const devices = await server.db.query<{ id: number }>('SELECT id FROM devices WHERE owner_id = $1 ORDER BY id', [ids.oceanic]);
    // 3 alarms on every vessel of the enterprise at once (a satellite outage).
    await server.db.query(
      `INSERT INTO alarms (device_id, code, severity, raised_at, last_seen_at)
       SELECT d, c, 'major', now(), now() FROM unnest($1::int[]) AS d, unnest(ARRAY['E03', 'E04', 'E05']) AS c`,
      [devices.map((d) => d.id)],
    );
    const expected = devices.length * 3;
    const seen = new Set<string>();
    await until(() => {
      seen.clear();
      for (const h of hits.filter((x) => x.path === '/storm'))
        for (const n of h.body.event === 'digest' ? h.body.notifications : [h.body]) seen.add(n.id);
      return seen.size >= expected;
    }, 20_000);
    const messages = hits.filter((h) => h.path === '/storm');
    expect(messages.length).toBeLessThanOrEqual(3);
    expect(seen.size).toBe(expected);
    const digest = messages.find((h) => h.body.event === 'digest')!;
    expect(digest.headers['x-fleet-signature']).toBe(`sha256=${hmac(WEBHOOK_SECRET, digest.raw, 'hex')}`);
    expect(digest.body.link).toBe('https://fleet.example.com/device/deviceManageData?tab=alarms');
  });

  it('an escalation goes out when the alarm is still unacknowledged, and is cancelled when it was acknowledged', async () => {
    await addContact('Duty hook', { channel: 'webhook', target: `${base}/duty`, secret: WEBHOOK_SECRET });
    await addContact('Boss hook', { channel: 'webhook', target: `${base}/boss`, secret: WEBHOOK_SECRET });
    expect(
      (
        await call(
          'oceanic',
          'alarmRule/add',
          rule({
            name: 'E06',
            codes: ['E06', 'E07'],
            contactPointIds: [contacts['Duty hook']],
            escalateMinutes: 1,
            escalateContactPointIds: [contacts['Boss hook']],
          }),
        )
      ).code,
    ).toBe(0);
    // Raised two minutes ago (a late report): the escalation is due at once; the second alarm is acknowledged first.
    const [late] = await server.db.query<{ id: number }>(
      `INSERT INTO alarms (device_id, code, severity, raised_at, last_seen_at) VALUES ($1, 'E06', 'major', now() - interval '2 minutes', now()) RETURNING id::int`,
      [vessel.id],
    );
    const [acked] = await server.db.query<{ id: number }>(
      `INSERT INTO alarms (device_id, code, severity, raised_at, last_seen_at, acked_at, acked_by)
       VALUES ($1, 'E07', 'major', now() - interval '2 minutes', now(), now(), $2) RETURNING id::int`,
      [vessel.id, ids.oceanic],
    );
    await until(() => hits.find((h) => h.path === '/boss' && h.body.alarm?.id === late!.id));
    const states = await until(async () => {
      const list = (await logOf('oceanic', 'event=escalated')).list.filter((r: any) => r.alarmId === acked!.id);
      return list.length && list[0].state !== 'pending' ? list : null;
    });
    expect(states[0].state).toBe('cancelled');
    expect(hits.some((h) => h.path === '/boss' && h.body.alarm?.id === acked!.id)).toBe(false);
  });
});
