import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, engines, type TestServer } from './helpers';
import { ingest, minutesAgo, report, reportingDevice, SECRET } from './monitoringFixtures';
import { connectDevice } from './mqttFixtures';
import { openStream } from './liveStream';
import { alwaysLeader, electLeader, type Leader } from '../../server/leader';
import { attachLeader, metricsPortOf } from '../../server/ops';

const TOKEN = 'metrics-test-token-0123456789';

/** The families of a Prometheus text exposition: name -> type, and every sample's labels. */
function parseExposition(text: string) {
  const types = new Map<string, string>();
  const samples: { name: string; labels: Record<string, string>; value: number }[] = [];
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) types.set(type[1]!, type[2]!);
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)/.exec(line)!;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  const value = (name: string, labels: Record<string, string> = {}) =>
    samples
      .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
      .reduce((sum, s) => sum + s.value, 0);
  return { types, samples, value };
}

describe.each(engines)('health and readiness on %s', (engine) => {
  let s: TestServer;
  const leaders: Leader[] = [];
  beforeAll(async () => {
    s = await createTestServer(engine);
  });
  afterAll(async () => {
    for (const l of leaders) await l.stop();
    await s.close();
  });
  const ready = async () => {
    const res = await s.app.inject({ method: 'GET', url: '/ready' });
    return { status: res.statusCode, body: res.json() };
  };

  it('/health answers 200 without touching anything, outside /cz and without a token', async () => {
    const res = await s.app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'alive' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('/ready answers 503 naming the leader until this replica has taken part in an election', async () => {
    const { status, body } = await ready();
    expect(status).toBe(503);
    expect(body.failing).toEqual(['leader']);
    expect(body.checks.map((c: { name: string }) => c.name)).toEqual(['database', 'migrations', 'broker', 'ingestBacklog', 'leader']);
    expect(body.checks.find((c: { name: string }) => c.name === 'leader')).toMatchObject({ state: 'failing', detail: 'no election yet' });
  });

  it('/ready answers 200 once a leader is known, with every check and its state', async () => {
    const leader = engine === 'pglite' ? alwaysLeader() : await electLeader(s.databaseUrl, { retryMs: 60_000 });
    leaders.push(leader);
    expect(leader.isLeader).toBe(true);
    attachLeader(s.app, leader);
    const { status, body } = await ready();
    expect(body.failing).toEqual([]);
    expect(status).toBe(200);
    expect(body.status).toBe('ready');
    for (const check of body.checks) expect(check.state).toBe('ok');
    expect(body.checks.find((c: { name: string }) => c.name === 'broker').detail).toBe('embedded listening');
    expect(body.checks.find((c: { name: string }) => c.name === 'leader').detail).toBe('this replica');
  });

  if (engine === 'postgres') {
    it('a replica that does not lead is ready while another holds the lead, and answers 503 when none does', async () => {
      // A second election on the same schema: the first holds the lock, so this one waits (and does not retry soon).
      const follower = await electLeader(s.databaseUrl, { retryMs: 60_000 });
      leaders.push(follower);
      expect(follower.isLeader).toBe(false);
      attachLeader(s.app, follower);
      let r = await ready();
      expect(r.status).toBe(200);
      expect(r.body.checks.find((c: { name: string }) => c.name === 'leader').detail).toBe('another replica');
      await leaders[0]!.stop(); // the leader's connection closes: PostgreSQL releases its lock
      r = await ready();
      expect(r.status).toBe(503);
      expect(r.body.failing).toEqual(['leader']);
      expect(r.body.checks.find((c: { name: string }) => c.name === 'leader').detail).toBe('no replica leads');
    });
  }

  it('/ready answers 503 naming the database when it is down, and /health still answers 200', async () => {
    const t = await createTestServer(engine);
    try {
      attachLeader(
        t.app,
        engine === 'pglite' ? alwaysLeader() : { isLeader: false, onChange: () => undefined, stop: async () => undefined },
      );
      const close = t.db.close.bind(t.db);
      await close(); // the database connection is gone (PGlite closed, the pool ended)
      t.db.close = async () => undefined; // closed once already; the app closes it again on close
      const res = await t.app.inject({ method: 'GET', url: '/ready' });
      expect(res.statusCode).toBe(503);
      const body = res.json();
      expect(body.failing).toContain('database');
      expect(body.checks.find((c: { name: string }) => c.name === 'database').state).toBe('failing');
      expect(body.checks.find((c: { name: string }) => c.name === 'migrations').state).toBe('unknown');
      expect((await t.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('/metrics is off by default: 404, nothing collected', async () => {
    expect((await s.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
  });
});

describe.each(engines)('metrics on %s', (engine) => {
  let s: TestServer;
  let device: { id: number; num: string };
  beforeAll(async () => {
    s = await createTestServer(engine, { metricsToken: TOKEN });
    device = await reportingDevice(s.db, 'oceanic', 0);
    attachLeader(s.app, alwaysLeader());
  });
  afterAll(() => s.close());
  const scrape = async () => {
    const res = await s.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return parseExposition(res.body);
  };

  it('refuses /metrics without the token, or with a wrong one', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: TOKEN }]) {
      const res = await s.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(401);
      expect(res.body).not.toContain('fleet_');
    }
  });

  it('has every family, named by Prometheus conventions, after API calls, ingests over HTTP and MQTT and a live stream', async () => {
    const token = await s.login('oceanic');
    expect((await s.call({ method: 'GET', url: `${s.base}/users/getSelf`, token })).code).toBe(0);
    expect((await s.app.inject({ method: 'GET', url: `/no/such/route/${device.num}` })).statusCode).toBe(404);
    expect((await ingest(s, device.num, report({ faults: ['E01'] }, minutesAgo(3)))).data.accepted).toBe(1);
    expect((await ingest(s, device.num, report({}, minutesAgo(2)), 'wrong-secret')).code).not.toBe(0);
    const client = await connectDevice(s.link.deviceUrl!, device.num, SECRET);
    const stream = await openStream(s, token);
    try {
      await client.publishAsync(`fleet/${device.num}/report`, JSON.stringify(report({ faults: ['E01'] }, minutesAgo(1))), { qos: 1 });
      const { types, samples, value } = await scrape();

      const expected: Record<string, string> = {
        fleet_http_requests_total: 'counter',
        fleet_http_request_duration_seconds: 'histogram',
        fleet_ingest_messages_received_total: 'counter',
        fleet_ingest_messages_refused_total: 'counter',
        fleet_ingest_reports_stored_total: 'counter',
        fleet_ingest_group_reports: 'histogram',
        fleet_ingest_group_duration_seconds: 'histogram',
        fleet_ingest_backlog_reports: 'gauge',
        fleet_sse_clients: 'gauge',
        fleet_mqtt_connections: 'gauge',
        fleet_alarms_open: 'gauge',
        fleet_notification_outbox_depth: 'gauge',
        fleet_notification_delivery_latency_seconds: 'histogram',
        fleet_leader: 'gauge',
        fleet_database_up: 'gauge',
        fleet_process_cpu_seconds_total: 'counter',
        fleet_process_resident_memory_bytes: 'gauge',
        fleet_nodejs_eventloop_lag_seconds: 'gauge',
      };
      for (const [name, type] of Object.entries(expected)) expect([name, types.get(name)]).toEqual([name, type]);
      // PostgreSQL has a pool whose waits are shown; PGlite has none.
      expect(types.get('fleet_db_pool_waiting_queries')).toBe(engine === 'postgres' ? 'gauge' : undefined);
      expect(types.get('fleet_db_pool_connections')).toBe(engine === 'postgres' ? 'gauge' : undefined);
      for (const name of types.keys()) {
        expect(name).toMatch(/^fleet_[a-z0-9_]+$/);
        if (types.get(name) === 'counter') expect(name).toMatch(/_total$/);
      }

      // HTTP by route template, never the raw URL; a request no route matched is "none".
      expect(value('fleet_http_requests_total', { method: 'GET', route: `${s.base}/users/getSelf`, status_code: '200' })).toBe(1);
      expect(value('fleet_http_requests_total', { route: `${s.base}/deviceModule/ingest/report` })).toBe(2);
      expect(value('fleet_http_requests_total', { route: 'none', status_code: '404' })).toBe(1);
      expect(value('fleet_http_request_duration_seconds_count', { method: 'GET', route: `${s.base}/users/getSelf` })).toBe(1);
      // Reports by transport: received, stored, refused (with why).
      expect(value('fleet_ingest_messages_received_total', { transport: 'http' })).toBe(2);
      expect(value('fleet_ingest_messages_received_total', { transport: 'mqtt' })).toBe(1);
      expect(value('fleet_ingest_reports_stored_total', { transport: 'http' })).toBe(1);
      expect(value('fleet_ingest_reports_stored_total', { transport: 'mqtt' })).toBe(1);
      expect(value('fleet_ingest_messages_refused_total', { transport: 'http', reason: 'auth' })).toBe(1);
      expect(value('fleet_ingest_group_reports_count')).toBeGreaterThanOrEqual(2);
      expect(value('fleet_ingest_group_reports_sum')).toBeGreaterThanOrEqual(2);
      expect(value('fleet_ingest_backlog_reports')).toBe(0);
      expect(value('fleet_sse_clients')).toBe(1);
      expect(value('fleet_mqtt_connections')).toBe(1);
      expect(value('fleet_leader')).toBe(1);
      expect(value('fleet_database_up')).toBe(1);
      const [{ n: open }] = await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM alarms WHERE cleared_at IS NULL');
      expect(value('fleet_alarms_open')).toBe(open);
      expect(samples.filter((x) => x.name === 'fleet_alarms_open').map((x) => x.labels.severity)).toEqual(['critical', 'major', 'minor']);
      const [{ n: outbox }] = await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM alarm_outbox');
      expect(value('fleet_notification_outbox_depth')).toBe(outbox);

      // No per-vessel or per-user label: no label value is a device number, a user name or a raw URL.
      const numbers = new Set((await s.db.query<{ num: string }>('SELECT device_num AS num FROM devices')).map((r) => r.num));
      const names = new Set((await s.db.query<{ name: string }>('SELECT name FROM users')).map((r) => r.name));
      const labelNames = new Set(samples.flatMap((x) => Object.keys(x.labels)));
      expect([...labelNames].filter((l) => /device|vessel|user|owner|token|url/i.test(l))).toEqual([]);
      for (const sample of samples)
        for (const v of Object.values(sample.labels)) {
          expect(numbers.has(v) || names.has(v)).toBe(false);
          expect(v).not.toContain(device.num);
          expect(v).not.toMatch(/[?&]token=/);
        }
    } finally {
      stream.close();
      await client.endAsync();
    }
  });
});

describe('metrics on a port of their own', () => {
  let s: TestServer;
  let url: string;
  beforeAll(async () => {
    s = await createTestServer('pglite', { metricsPort: 0, metricsHost: '127.0.0.1', metricsToken: TOKEN });
    await s.app.ready();
    url = `http://127.0.0.1:${metricsPortOf(s.app)}/metrics`;
  });
  afterAll(() => s.close());

  it('serves /metrics only there, with the token', async () => {
    expect((await s.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode).toBe(404);
    expect((await fetch(url)).status).toBe(401);
    const res = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('# TYPE fleet_http_requests_total counter');
    expect((await fetch(url.replace('/metrics', '/health'))).status).toBe(404);
  });
});
