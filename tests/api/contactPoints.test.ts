import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/domain/errorCodes';
import { supportCaller } from './notifyFixtures';
import { createTestServer, demoIds, engines, type TestServer } from './helpers';

/**
 * Contact points (docs/api.md, "Notifications"): a declared resource scoped by enterprise, with a
 * write-only secret, and a test message sent to a real local receiver that checks the signature.
 */
const hits: { path: string; signature: string; body: string }[] = [];
let receiver: Server;
let base = '';

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      hits.push({ path: req.url ?? '', signature: String(req.headers['x-fleet-signature'] ?? ''), body });
      const telegram = req.url?.startsWith('/bot');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(telegram ? { ok: true, result: {} } : {}));
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => new Promise((resolve) => receiver?.close(resolve)));

describe.each(engines)('contact points on %s', (engine) => {
  let server: TestServer;
  const tokens: Record<string, string> = {};
  let ids: Record<string, number> = {};
  const call = supportCaller(() => server, tokens);
  const point = (extra: Record<string, unknown> = {}) => ({
    name: 'Duty webhook',
    channel: 'webhook',
    target: `${base}/hook`,
    secret: 'first-secret',
    language: 'zh',
    timeZone: 'Asia/Shanghai',
    enabled: true,
    ...extra,
  });

  beforeAll(async () => {
    server = await createTestServer(engine, { notifyAllowPrivateTargets: true, telegramApiBase: base });
    for (const name of ['admin', 'oceanic', 'oceanops', 'polaris']) tokens[name] = await server.login(name);
    ids = await demoIds(server);
  });
  afterAll(async () => server?.close());

  it('never answers the secret, keeps it when an update leaves it empty, and keeps it out of the audit log', async () => {
    const created = await call('oceanic', 'contactPoint/add', point());
    expect(created.code).toBe(0);
    expect(created.data).toMatchObject({ ownerId: ids.oceanic, channel: 'webhook', secretSet: true });
    expect(created.data).not.toHaveProperty('secret');
    const listed = await call('oceanic', 'contactPoint/getAll');
    expect(JSON.stringify(listed.data)).not.toContain('first-secret');

    const updated = await call('oceanic', 'contactPoint/update', { ...point({ name: 'Duty webhook 2', secret: '' }), id: created.data.id });
    expect(updated.data).toMatchObject({ name: 'Duty webhook 2', secretSet: true });
    const sent = await call('oceanic', `contactPoint/testSend?id=${created.data.id}`, {});
    expect(sent.data).toMatchObject({ delivered: true });
    const hit = hits.at(-1)!;
    expect(hit.signature).toBe(`sha256=${createHmac('sha256', 'first-secret').update(hit.body).digest('hex')}`);
    expect(JSON.parse(hit.body).alarm.text).toBe('测试消息：通知渠道已连通');

    const audit = await server.db.query<{ before: unknown; after: unknown }>(
      `SELECT before, after FROM audit_log WHERE entity = 'contactPoint'`,
    );
    expect(audit.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(audit)).not.toContain('first-secret');
  });

  it('reports every bad field at once in the caller language, and writes nothing', async () => {
    const before = (await call('oceanic', 'contactPoint/getAll')).data.total;
    const bad = await call(
      'oceanic',
      'contactPoint/add',
      { name: '', channel: 'webhook', target: 'ftp://x', language: 'fr', timeZone: 'Mars/Base' },
      'zh',
    );
    expect(bad.code).toBe(ErrorCode.Validation);
    expect((bad.data as { field: string }[]).map((e) => e.field).sort()).toEqual(['language', 'name', 'secret', 'target', 'timeZone']);
    expect(bad.data.find((e: { field: string }) => e.field === 'timeZone').message).toBe('时区无效（例如 Asia/Shanghai）');
    const telegram = await call('oceanic', 'contactPoint/add', point({ channel: 'telegram', target: 'https://not-a-chat' }));
    expect(telegram.data).toEqual([{ field: 'target', message: expect.stringContaining('chat id') }]);
    expect((await call('oceanic', 'contactPoint/getAll')).data.total).toBe(before);
  });

  it('refuses a webhook or Telegram bot left without a secret, also when an edit moves a robot to one; level 1 names the enterprise', async () => {
    const robot = await call(
      'oceanic',
      'contactPoint/add',
      point({ name: 'Bridge WeCom', channel: 'wecom', target: `${base}/wecom`, secret: '' }),
    );
    expect(robot.data).toMatchObject({ secretSet: false });
    const moved = await call('oceanic', 'contactPoint/update', { ...point({ name: 'Bridge WeCom', secret: '' }), id: robot.data.id });
    expect(moved).toMatchObject({ code: ErrorCode.Validation, data: [{ field: 'secret', message: 'required' }] });
    expect((await call('oceanic', `contactPoint/getById?id=${robot.data.id}`)).data.channel).toBe('wecom');

    const orphan = await call('admin', 'contactPoint/add', point({ name: 'Nobody', channel: 'wecom', secret: '' }));
    expect(orphan).toMatchObject({ code: ErrorCode.Validation, data: [{ field: 'ownerId', message: 'required' }] });
  });

  it("keeps each enterprise's contact points to itself; a sub-user has none", async () => {
    const own = await call(
      'oceanic',
      'contactPoint/add',
      point({ name: 'Ops Telegram', channel: 'telegram', target: '-1001', secret: '123:ABC' }),
    );
    expect((await call('oceanic', `contactPoint/testSend?id=${own.data.id}`, {})).data).toMatchObject({ delivered: true });
    expect(hits.at(-1)!.path).toBe('/bot123:ABC/sendMessage');

    expect((await call('polaris', `contactPoint/getById?id=${own.data.id}`)).code).toBe(ErrorCode.NotFound);
    expect((await call('polaris', `contactPoint/testSend?id=${own.data.id}`, {})).code).toBe(ErrorCode.NotFound);
    // Polaris sees its own (the demo's disabled example) and none of oceanic's.
    const theirs = (await call('polaris', 'contactPoint/getAll')).data.list;
    expect(theirs.length).toBeGreaterThan(0);
    expect(theirs.every((c: { ownerId: number }) => c.ownerId === ids.polaris)).toBe(true);
    expect((await call('polaris', 'contactPoint/add', point({ ownerId: ids.oceanic }))).code).toBe(ErrorCode.Forbidden);
    expect((await call('oceanops', 'contactPoint/getAll')).code).toBe(ErrorCode.Forbidden);
    expect((await call('oceanops', `contactPoint/testSend?id=${own.data.id}`, {})).code).toBe(ErrorCode.Forbidden);
    const all = await call('admin', 'contactPoint/getAll');
    expect(all.data.list.map((p: { id: number }) => p.id)).toContain(own.data.id);
  });

  it("says why a test message did not go, in the caller's language", async () => {
    // A closed port says what happened (fetch's own words are only "fetch failed").
    const spare = createServer();
    await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve));
    const port = (spare.address() as AddressInfo).port;
    await new Promise((resolve) => spare.close(resolve));
    const closed = await call('oceanic', 'contactPoint/add', point({ name: 'Closed port', target: `http://127.0.0.1:${port}/hook` }));
    expect(closed.code, JSON.stringify(closed)).toBe(0);
    const unreachable = await call('oceanic', `contactPoint/testSend?id=${closed.data.id}`, {}, 'zh');
    expect(unreachable.data).toMatchObject({ delivered: false, reason: 'unreachable', message: '无法连接到通知服务：ECONNREFUSED' });
    const strict = await createTestServer(
      engine,
      { notifyAllowPrivateTargets: false },
      engine === 'postgres' ? { shareSchemaOf: server } : {},
    );
    try {
      const token = await strict.login('oceanic');
      const created = await strict.call({
        method: 'POST',
        url: `${strict.base}/supportModule/contactPoint/add`,
        token,
        payload: point({ name: 'Local hook' }),
      });
      const sent = await strict.call({
        method: 'POST',
        url: `${strict.base}/supportModule/contactPoint/testSend?id=${created.data.id}`,
        token,
        lang: 'en',
        payload: {},
      });
      expect(sent.data).toMatchObject({ delivered: false, reason: 'target' });
      expect(sent.data.message).toMatch(/^A notification address must be an http or https link/);
    } finally {
      await strict.close();
    }
  });
});
