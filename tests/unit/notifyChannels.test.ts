import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import { deliver, type Contact } from '../../server/notify/delivery';
import type { Notice, Reader } from '../../server/notify/notice';

/**
 * Each channel against a real receiver that checks the service's documented format: a local SMTP
 * server (smtp-server, the mail read back with mailparser), and a local HTTP server standing in for
 * a webhook receiver, the WeCom and DingTalk robots, a Feishu bot and Telegram's Bot API.
 */
const notice: Notice = {
  id: 'n-42',
  event: 'alarm.raised',
  alarm: { id: 7, code: 'E101', text: 'VSAT modem offline', severity: 'critical' },
  vessel: { id: 3, name: 'Pacific Star' },
  occurredAt: new Date('2026-11-26T19:05:00Z'),
  position: { lat: 1.2644, lon: 103.8223 },
  link: 'https://fleet.example.com/device/deviceDetail?id=3',
};
const zh: Reader = { language: 'zh', timeZone: 'Asia/Shanghai' };
const en: Reader = { language: 'en', timeZone: 'Europe/London' };
const options = { allowPrivateTargets: true, timeoutMs: 5000 };
const SECRET = 'robot-secret';

const received: { path: string; headers: IncomingMessage['headers']; body: string }[] = [];
const mails: ParsedMail[] = [];
let http: Server;
let base = '';
let smtp: SMTPServer;
let smtpPort = 0;

const hmac = (key: string, text: string, encoding: 'hex' | 'base64') => createHmac('sha256', key).update(text).digest(encoding);
const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** What each service answers, after checking the request as its documentation says it must look. */
function answer(path: string, headers: IncomingMessage['headers'], raw: string): [number, object] {
  const url = new URL(path, 'http://x');
  const body = JSON.parse(raw) as Record<string, any>;
  if (url.pathname === '/hook') {
    if (!same(String(headers['x-fleet-signature']), `sha256=${hmac(SECRET, raw, 'hex')}`)) return [401, { error: 'bad signature' }];
    return headers['idempotency-key'] ? [204, {}] : [400, { error: 'no idempotency key' }];
  }
  if (url.pathname === '/hook-down') return [503, { error: 'down' }];
  if (url.pathname === '/cgi-bin/webhook/send') {
    const ok =
      url.searchParams.get('key') === 'wecom-key' && body.msgtype === 'markdown' && Buffer.byteLength(body.markdown?.content ?? '') <= 4096;
    return [200, ok ? { errcode: 0, errmsg: 'ok' } : { errcode: 40008, errmsg: 'invalid message type' }];
  }
  if (url.pathname === '/robot/send') {
    const timestamp = Number(url.searchParams.get('timestamp'));
    const sign = url.searchParams.get('sign') ?? '';
    const fresh = Math.abs(Date.now() - timestamp) < 3_600_000;
    if (!fresh || !same(sign, hmac(SECRET, `${timestamp}\n${SECRET}`, 'base64')))
      return [200, { errcode: 310000, errmsg: 'sign not match' }];
    const ok = body.msgtype === 'markdown' && typeof body.markdown?.title === 'string' && typeof body.markdown?.text === 'string';
    return [200, ok ? { errcode: 0, errmsg: 'ok' } : { errcode: 40035, errmsg: 'missing parameter' }];
  }
  if (url.pathname.startsWith('/open-apis/bot/v2/hook/')) {
    const expected = createHmac('sha256', `${body.timestamp}\n${SECRET}`).update('').digest('base64');
    if (!same(String(body.sign), expected))
      return [200, { code: 19021, msg: 'sign match fail or timestamp is not within one hour from current time' }];
    return [
      200,
      body.msg_type === 'text' && body.content?.text ? { code: 0, msg: 'success', data: {} } : { code: 9499, msg: 'Bad Request' },
    ];
  }
  if (url.pathname === '/bot123:ABC/sendMessage')
    return body.chat_id === '-1001' && body.text
      ? [200, { ok: true, result: { message_id: 1 } }]
      : [400, { ok: false, description: 'Bad Request: chat not found' }];
  return [404, {}];
}

beforeAll(async () => {
  http = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: raw });
      const [status, body] = answer(req.url ?? '', req.headers, raw);
      res.writeHead(status, { 'content-type': 'application/json' }).end(status === 204 ? undefined : JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  smtp = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth: (auth, _session, callback) =>
      auth.username === 'alerts' && auth.password === 'smtp-pass'
        ? callback(null, { user: auth.username })
        : callback(new Error('Invalid login')),
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
  await new Promise((resolve) => http?.close(resolve));
  await new Promise<void>((resolve) => smtp?.close(() => resolve()));
});

const smtpContact = (password = 'smtp-pass', port = smtpPort): Contact => ({
  channel: 'email',
  to: 'duty@example.com',
  smtp: { host: '127.0.0.1', port, secure: false, user: 'alerts', password, from: 'Fleet console <alerts@example.com>' },
});

describe('notification channels, each in its documented format', () => {
  it('mails the recipient in its language and time zone, with the vessel, the alarm, the position and the link', async () => {
    expect(await deliver(smtpContact(), notice, zh, options)).toMatchObject({ ok: true });
    const mail = mails.at(-1)!;
    expect(mail.subject).toBe('[紧急] 告警: Pacific Star');
    expect(mail.to && 'text' in mail.to ? mail.to.text : '').toBe('duty@example.com');
    expect(mail.text).toContain('告警内容: E101 VSAT modem offline');
    expect(mail.text).toContain('时间: 2026-11-27 03:05 (UTC+08:00)');
    expect(mail.text).toContain('位置: 1.2644°N 103.8223°E');
    expect(mail.html).toContain('href="https://fleet.example.com/device/deviceDetail?id=3"');
    expect(mail.headers.get('x-fleet-notification')).toBe('n-42');
  });

  it('signs the webhook body (HMAC-SHA256) and carries an idempotency key and UTC times', async () => {
    expect(await deliver({ channel: 'webhook', url: `${base}/hook`, secret: SECRET }, notice, en, options)).toMatchObject({ ok: true });
    const hit = received.at(-1)!;
    expect(hit.headers['idempotency-key']).toBe('n-42');
    expect(JSON.parse(hit.body)).toEqual({
      id: 'n-42',
      event: 'alarm.raised',
      occurredAt: '2026-11-26T19:05:00.000Z',
      alarm: notice.alarm,
      vessel: notice.vessel,
      position: notice.position,
      link: notice.link,
    });
    // A wrong secret is refused by the receiver, and that is not retried.
    const wrong = await deliver({ channel: 'webhook', url: `${base}/hook`, secret: 'other' }, notice, en, options);
    expect(wrong).toMatchObject({
      ok: false,
      reason: 'refused',
      retry: false,
      message: 'The notification service refused the message: HTTP 401',
    });
  });

  it('speaks to the WeCom, DingTalk (signed), Feishu (signed) and Telegram bots as they document', async () => {
    const wecom = await deliver({ channel: 'wecom', url: `${base}/cgi-bin/webhook/send?key=wecom-key` }, notice, zh, options);
    expect(wecom).toMatchObject({ ok: true });
    expect(JSON.parse(received.at(-1)!.body).markdown.content).toContain('[查看船舶](https://fleet.example.com/device/deviceDetail?id=3)');

    const dingtalk = await deliver(
      { channel: 'dingtalk', url: `${base}/robot/send?access_token=tok`, secret: SECRET },
      notice,
      en,
      options,
    );
    expect(dingtalk).toMatchObject({ ok: true });
    expect(JSON.parse(received.at(-1)!.body).markdown.title).toBe('[Critical] Alarm: Pacific Star');
    const unsigned = await deliver(
      { channel: 'dingtalk', url: `${base}/robot/send?access_token=tok`, secret: 'wrong' },
      notice,
      en,
      options,
    );
    expect(unsigned).toMatchObject({
      ok: false,
      reason: 'refused',
      message: 'The notification service refused the message: sign not match',
    });

    expect(
      await deliver({ channel: 'feishu', url: `${base}/open-apis/bot/v2/hook/abc`, secret: SECRET }, notice, zh, options),
    ).toMatchObject({ ok: true });
    expect(JSON.parse(received.at(-1)!.body).content.text).toContain('船舶: Pacific Star');
    expect(await deliver({ channel: 'feishu', url: `${base}/open-apis/bot/v2/hook/abc`, secret: 'x' }, notice, zh, options)).toMatchObject({
      ok: false,
      reason: 'refused',
    });

    const telegram = await deliver({ channel: 'telegram', botToken: '123:ABC', chatId: '-1001', apiBase: base }, notice, en, options);
    expect(telegram).toMatchObject({ ok: true });
    expect(JSON.parse(received.at(-1)!.body).text).toContain('Time: 2026-11-26 19:05 (UTC)');
  });
});

describe('notification failures say why, in the recipient language, and whether to try again', () => {
  it('a refused SMTP login is not retried; an SMTP server that does not answer is', async () => {
    const login = await deliver(smtpContact('wrong'), notice, zh, options);
    expect(login).toMatchObject({ ok: false, reason: 'refused', retry: false });
    expect((login as { message: string }).message).toMatch(/^通知服务拒绝了消息：/);
    const closed = await deliver(smtpContact('smtp-pass', 1), notice, en, { ...options, timeoutMs: 2000 });
    expect(closed).toMatchObject({ ok: false, reason: 'unreachable', retry: true });
  });

  it('a receiver that is down is retried later', async () => {
    expect(await deliver({ channel: 'webhook', url: `${base}/hook-down`, secret: SECRET }, notice, en, options)).toMatchObject({
      ok: false,
      reason: 'refused',
      retry: true,
    });
  });

  it('refuses a URL that is not http(s), and one on this machine or a private network unless the operator allows it', async () => {
    const strict = { allowPrivateTargets: false, timeoutMs: 2000 };
    const count = received.length;
    for (const url of [
      `${base}/hook`,
      'http://10.1.2.3/hook',
      'http://[::1]:8080/hook',
      'http://169.254.169.254/latest',
      'ftp://example.com/x',
    ]) {
      const result = await deliver({ channel: 'webhook', url, secret: SECRET }, notice, zh, strict);
      expect(result, url).toMatchObject({ ok: false, reason: 'target', retry: false });
      expect((result as { message: string }).message).toMatch(/^通知地址必须是 http 或 https 链接/);
    }
    expect(received.length).toBe(count);
  });
});
