import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { SMTPServer } from 'smtp-server';
import { report } from '../tests/api/monitoringFixtures';
import { addBenchVessels, loginToken, postgresAvailable, startBenchServer } from './benchServer';
import { SMOKE, sized } from './smoke';

/**
 * bench:notify — alarm notifications (docs/api.md, "Notifications") on PGlite and PostgreSQL, one
 * server per engine, the receivers in this process (an SMTP server, an HTTP receiver):
 *  1. fault report -> mail accepted by the SMTP server, and -> webhook received: p50/p99 over FAULTS faults,
 *     one a second, while a fleet reports through bench/ingestLoad (VESSELS vessels, each every 10 s). Each
 *     measured fault has its own vessel, rule and contact points (rather than spacing the faults): storm
 *     control counts per contact point, so no fault waits for another's window.
 *  2. storm: STORM alarms in STORM_S s across the fleet to one rule's mailbox and webhook: messages per
 *     recipient and channel, distinct notification ids the receiver saw, lost = expected - seen.
 *  3. the webhook answers 503 for DOWN_S while alarms come, then 200: delivered, duplicates received (by
 *     notification id), time to drain after it returns.
 *  4. ingest at RATE reports/s offered, alarms rising and clearing: no rule enabled, then three matching everything.
 * Prints figures; asserts nothing. BENCH_SMOKE=1: small sizes, a few seconds each, PGlite only (bench/smoke.ts).
 *   BENCH_ENGINES=pglite|postgres  BENCH_NOTIFY_DOWN_S (600; smoke 5)  BENCH_NOTIFY_DIGEST_S (15; smoke 2)
 *   BENCH_NOTIFY_RETRY_MAX_MS (30000; smoke 2000)  BENCH_NOTIFY_RATE (3000; smoke 200)  BENCH_SECONDS (15; smoke 2)
 */
const num = (name: string, full: number, smoke: number) => Number(process.env[name] ?? sized(full, smoke));
const VESSELS = num('BENCH_VESSELS', 10_000, 500);
const FAULTS = num('BENCH_NOTIFY_FAULTS', 50, 5);
const FAULT_GAP_MS = sized(1000, 300);
const STORM = num('BENCH_NOTIFY_STORM', 1000, 40);
const STORM_S = sized(10, 1);
/** Storm control's window, longer than the storm (the aim's case: the storm within one window), short enough to wait for. */
const DIGEST_S = num('BENCH_NOTIFY_DIGEST_S', 15, 2);
const DOWN_S = num('BENCH_NOTIFY_DOWN_S', 600, 5);
const DOWN_ALARMS = sized(100, 5);
const RETRY_BASE_MS = sized(5000, 500);
/** Bounds the drain: a notification's next attempt is at most this far off when the receiver returns. */
const RETRY_MAX_MS = num('BENCH_NOTIFY_RETRY_MAX_MS', 30_000, 2_000);
/** Enough attempts that nothing fails during the outage (once capped, each wait is at least RETRY_MAX_MS / 2). */
const MAX_ATTEMPTS = Math.ceil((DOWN_S * 1000) / (RETRY_MAX_MS / 2)) + 20;
const RATE = num('BENCH_NOTIFY_RATE', 3000, 200);
const SECONDS = num('BENCH_SECONDS', 15, 2);
const SECRET = 'bench-device-secret';
const LOAD = fileURLToPath(new URL('./ingestLoad.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));

let tickMs = 0;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const now = () => performance.now();
const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.max(0, Math.ceil(q * values.length) - 1))] ?? NaN;
async function until(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(50)) if (await check()) return true;
  return false;
}

/** What the receivers got: webhook calls (the notification ids each carried) and mails (their X-Fleet-Notification id). */
const hooks: { path: string; at: number; status: number; ids: string[] }[] = [];
const mails: { to: string; at: number; id: string }[] = [];
/** Paths the webhook receiver answers 503 on. */
const down = new Set<string>();
const receiver = createServer((req, res) => {
  let raw = '';
  req.on('data', (c: Buffer) => (raw += c.toString()));
  req.on('end', () => {
    const path = (req.url ?? '/').split('?')[0]!;
    const body = JSON.parse(raw || '{}') as { event?: string; id: string; notifications?: { id: string }[] };
    const status = down.has(path) ? 503 : 200;
    hooks.push({ path, at: now(), status, ids: body.event === 'digest' ? body.notifications!.map((n) => n.id) : [body.id] });
    res.writeHead(status, { 'content-type': 'application/json' }).end(status === 200 ? '{}' : '{"error":"down"}');
  });
});
const smtp = new SMTPServer({
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onData(stream, session, callback) {
    let raw = '';
    stream.on('data', (c: Buffer) => (raw += c.toString()));
    stream.on('end', () => {
      mails.push({ to: session.envelope.rcptTo[0]?.address ?? '', at: now(), id: /^X-Fleet-Notification:\s*(\S+)/im.exec(raw)?.[1] ?? '' });
      callback();
    });
  },
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
const HOOK = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
const MAIL_SERVER = { name: 'Bench SMTP', host: '127.0.0.1', port: (smtp.server.address() as AddressInfo).port, secure: false };
const CONTACT = { secret: 'bench-hook-secret', language: 'en', timeZone: 'UTC', enabled: true };
/** Notifications a mail carries (it lists 10 by name): a digest's id ends with its count (digest-<first>-<last>-<count>). */
const mailCount = (id: string) => Number(/^digest-\d+-\d+-(\d+)$/.exec(id)?.[1] ?? 1);
const hooksAt = (path: string) => hooks.filter((h) => h.path === path && h.status === 200);
const distinctIds = (path: string) => new Set(hooksAt(path).flatMap((h) => h.ids)).size;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

type Figures = Record<'rps' | 'total' | 'p50' | 'p99' | 'errors' | 'refused', number>;
/** One bench/ingestLoad.ts run in a process of its own, as bench/ingest.ts runs it. */
const load = (options: Record<string, unknown>) =>
  new Promise<Figures>((resolve, reject) => {
    const child = spawn(TSX, [LOAD, JSON.stringify({ numPrefix: 'B', secret: SECRET, ...options })], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!) as Figures) : reject(new Error(`load ${code}`)),
    );
  });
/** Vessel i's number, as bench/ingestLoad.ts numbers them. */
const deviceNum = (i: number) => `B${i.toString(16).toUpperCase().padStart(7, '0')}`;

async function run(engine: 'pglite' | 'postgres') {
  hooks.length = mails.length = 0;
  const server = await startBenchServer(engine, {
    notifyAllowPrivateTargets: true,
    notifyDigestSeconds: DIGEST_S,
    notifyRetryBaseMs: RETRY_BASE_MS,
    notifyRetryMaxMs: RETRY_MAX_MS,
    notifyMaxAttempts: MAX_ATTEMPTS,
  });
  const { db, url } = server;
  tickMs = server.config.notifyTickMs;
  const count = async (sql: string, params: unknown[] = []) => (await db.query<{ n: number }>(sql, params))[0]!.n;
  const [{ id: owner }] = (await db.query<{ id: number }>(`SELECT id FROM users WHERE name = 'oceanic'`)) as [{ id: number }];
  // The fleet (0 .. VESSELS-1, driven by ingestLoad), then the measured faults' vessels, then the outage's.
  await addBenchVessels(db, { prefix: 'B', secret: SECRET, count: VESSELS + FAULTS + DOWN_ALARMS, ownerIds: [owner] });
  const nums = Array.from({ length: VESSELS + FAULTS + DOWN_ALARMS }, (_, i) => deviceNum(i));
  const rows = await db.query<{ id: number; n: string }>('SELECT id, device_num AS n FROM devices WHERE device_num = ANY($1)', [nums]);
  const byNum = new Map(rows.map((r) => [r.n, r.id]));
  const vesselId = (i: number) => byNum.get(deviceNum(i))!;
  const post = async (path: string, payload: object, headers: Record<string, string> = {}) => {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(payload),
    });
    return (await res.json()) as { code: number; data: { id: number } };
  };
  const device = (i: number) => ({ 'x-device-num': deviceNum(i), 'x-device-secret': SECRET });
  const ingest = async (i: number, at: number, faults: string[]) =>
    (await post('/deviceModule/ingest/report', report({ faults }, new Date(at)), device(i))).code;
  const tokens = { admin: await loginToken(url, 'admin', 'admin123'), oceanic: await loginToken(url, 'oceanic', 'oceanic123') };
  const api = async (who: keyof typeof tokens, route: string, payload: object) => {
    const body = await post(`/supportModule/${route}?token=${tokens[who]}`, payload, { 'accept-language': 'en' });
    if (body.code !== 0) throw new Error(`${route}: ${JSON.stringify(body)}`);
    return body.data.id;
  };
  const contact = (name: string, channel: 'email' | 'webhook', target: string) =>
    api('oceanic', 'contactPoint/add', { ...CONTACT, name, channel, target });
  /** A mailbox `name`@bench.example and a webhook HOOK/`name`, as contact points. */
  const mailAndHook = async (name: string) => [
    await contact(`${name} mail`, 'email', `${name}@bench.example`),
    await contact(`${name} hook`, 'webhook', `${HOOK}/${name}`),
  ];
  const rule = (name: string, fields: object) =>
    api('oceanic', 'alarmRule/add', { name, enabled: true, minSeverity: 'minor', notifyCleared: false, ...fields });
  await api('admin', 'mailServer/add', { ...MAIL_SERVER, fromAddress: 'alarms@bench.example', enabled: true });
  /** The fleet's device time: each load run and the storm send reports newer than the last (as bench/ingest.ts does). */
  let clock = Date.now() - 3_600_000;
  const fleetRun = async (options: Record<string, unknown>, devices: number) => {
    const figures = await load({ ...options, devices, apiBase: url, from: clock });
    clock += (Math.ceil(figures.total / devices) + 1) * 1000;
    return figures;
  };
  const table: Record<string, string | number>[] = [];
  const row = (part: string, figure: string, value: string | number, aim = '') => table.push({ part, figure, value, aim });

  // 1. Latency while the fleet reports.
  for (let i = 0; i < FAULTS; i++) {
    const ids = await mailAndHook(`f${i}`);
    await rule(`Fault ${i}`, { codes: ['E01'], deviceIds: [vesselId(VESSELS + i)], contactPointIds: ids });
    await ingest(VESSELS + i, Date.now() - 60_000, []);
  }
  const warmup = sized(3000, 1000);
  const fleetStart = new Date();
  const fleetSeconds = Math.ceil((warmup + FAULTS * FAULT_GAP_MS) / 1000) + sized(3, 1);
  const fleet = fleetRun({ mode: 'single', connections: 32, rate: VESSELS / 10, seconds: fleetSeconds }, VESSELS);
  await sleep(warmup);
  const sent: number[] = [];
  for (let i = 0, t0 = now(); i < FAULTS; i++) {
    await sleep(t0 + i * FAULT_GAP_MS - now());
    sent[i] = now();
    await ingest(VESSELS + i, Date.now(), ['E01']);
  }
  const hookAt = (i: number) => hooks.find((h) => h.path === `/f${i}`)?.at;
  const mailAt = (i: number) => mails.find((m) => m.to === `f${i}@bench.example`)?.at;
  await until(() => sent.every((_, i) => hookAt(i) && mailAt(i)), 60_000);
  const fleetFigures = await fleet;
  const fleetIds = Array.from({ length: VESSELS }, (_, i) => vesselId(i));
  const sql = 'SELECT count(*)::int AS n FROM device_state WHERE received_at >= $1 AND device_id = ANY($2::int[])';
  const reached = await count(sql, [fleetStart, fleetIds]);
  const latency = (at: (i: number) => number | undefined) => {
    const ms = sent.flatMap((s, i) => (at(i) === undefined ? [] : [at(i)! - s]));
    return `${Math.round(quantile(ms, 0.5))} / ${Math.round(quantile(ms, 0.99))} ms (${ms.length} of ${FAULTS})`;
  };
  row('1 latency', 'fleet: vessels that reported', `${reached.toLocaleString('en')} of ${VESSELS.toLocaleString('en')}`, '10,000');
  row('1 latency', 'fleet: reports/s (offered)', `${Math.round(fleetFigures.rps)} (${VESSELS / 10})`);
  row('1 latency', 'fault -> mail accepted p50 / p99', latency(mailAt));
  row('1 latency', 'fault -> webhook received p50 / p99', latency(hookAt));

  // 2. Storm: STORM alarms in STORM_S s, spread over the fleet, to one mailbox and one webhook.
  const stormRule = await rule('Storm: everything', { contactPointIds: await mailAndHook('storm') });
  const stormVessels = Array.from({ length: STORM }, (_, k) => Math.floor((k * VESSELS) / STORM));
  const stormAt = clock;
  clock += 1000;
  const answers: Promise<number>[] = [];
  const s0 = now();
  for (const [k, v] of stormVessels.entries()) {
    await sleep(s0 + (k * STORM_S * 1000) / STORM - now());
    answers.push(ingest(v, stormAt, ['E03']));
  }
  const refused = (await Promise.all(answers)).filter((c) => c !== 0).length;
  const answered = seconds(performance.now() - s0);
  const raisedSql = `SELECT count(*)::int AS n FROM alarms WHERE code = 'E03' AND device_id = ANY($1::int[])`;
  const expected = await count(raisedSql, [stormVessels.map(vesselId)]);
  const stormMails = () => mails.filter((m) => m.to === 'storm@bench.example');
  const mailed = () => stormMails().reduce((n, m) => n + mailCount(m.id), 0);
  await until(() => distinctIds('/storm') >= expected && mailed() >= expected, DIGEST_S * 4000 + 60_000);
  const last = Math.max(...hooksAt('/storm').map((h) => h.at), ...stormMails().map((m) => m.at));
  const sizes = (list: number[]) => `${list.length} (${list.join(', ')})`;
  row('2 storm', 'alarms raised (refused; all answered after)', `${expected} (${refused}; ${answered})`, `${STORM} in ${STORM_S} s`);
  row('2 storm', 'webhook messages (notifications in each)', sizes(hooksAt('/storm').map((h) => h.ids.length)), '<= 3');
  row('2 storm', 'mail messages (notifications in each)', sizes(stormMails().map((m) => mailCount(m.id))), '<= 3');
  row('2 storm', 'webhook: distinct ids seen / lost', `${distinctIds('/storm')} / ${expected - distinctIds('/storm')}`, 'lost 0');
  row('2 storm', 'mail: notifications carried / lost', `${mailed()} / ${expected - mailed()}`, 'lost 0');
  row('2 storm', 'storm start -> last message', seconds(last - s0));
  await db.query('UPDATE alarm_rules SET enabled = false WHERE id = $1', [stormRule]);

  // 3. The webhook down for DOWN_S (503) while alarms come, then up again.
  const outageHook = await contact('Outage hook', 'webhook', `${HOOK}/down`);
  const downRule = await rule('Outage: E02', { codes: ['E02'], contactPointIds: [outageHook] });
  down.add('/down');
  const d0 = now();
  for (let j = 0; j < DOWN_ALARMS; j++) {
    await sleep(d0 + (j * DOWN_S * 800) / DOWN_ALARMS - now());
    await ingest(VESSELS + FAULTS + j, Date.now(), ['E02']);
  }
  await sleep(d0 + DOWN_S * 1000 - now());
  down.delete('/down');
  const upAt = now();
  const outage = await count(`SELECT count(*)::int AS n FROM notifications WHERE rule_id = $1`, [downRule]);
  await until(() => distinctIds('/down') >= outage, RETRY_MAX_MS * 2 + DIGEST_S * 2000 + 60_000);
  const drained = Math.max(upAt, ...hooksAt('/down').map((h) => h.at)) - upAt;
  const pendingSql = `SELECT count(*)::int AS n FROM notifications WHERE rule_id = $1 AND state = 'pending'`;
  await until(async () => (await count(pendingSql, [downRule])) === 0, 10_000);
  const logSql = `SELECT count(*) FILTER (WHERE state = 'sent')::int AS sent, count(*) FILTER (WHERE state = 'failed')::int AS failed,
    max(attempts)::int AS attempts FROM notifications WHERE rule_id = $1`;
  const [log] = await db.query(logSql, [downRule]);
  const received = hooksAt('/down').flatMap((h) => h.ids);
  const refusals = hooks.filter((h) => h.path === '/down' && h.status === 503).length;
  row('3 outage', `notifications during ${DOWN_S} s down (calls answered 503)`, `${outage} (${refusals})`);
  const delivered = `${distinctIds('/down')} (${Object.values(log!).join(', ')})`;
  row('3 outage', 'delivered after (log: sent, failed, most attempts)', delivered, `${outage}`);
  row('3 outage', 'duplicates received (by notification id)', received.length - new Set(received).size, '0');
  row('3 outage', 'up -> last delivered (messages)', `${seconds(drained)} (${hooksAt('/down').length})`);

  // 4. Ingest on VESSELS - 1 vessels: the 2% whose reports carry E05 (every 50th report) change each round. Those of the first
  // round and the storm's report clean first: each run's first round raises E05 again; the rules come once those clears are done.
  const events = `SELECT (SELECT count(*) FROM alarms)::int + (SELECT count(*) FROM alarms WHERE cleared_at IS NOT NULL)::int AS n`;
  const notes = 'SELECT count(*)::int AS n FROM notifications';
  const offered = (seconds: number) => fleetRun({ mode: 'single', connections: Math.max(32, RATE / 50), rate: RATE, seconds }, VESSELS - 1);
  const churn = async (addRules: boolean) => {
    const [at, clean] = [clock, [...new Set([...stormVessels, ...Array.from({ length: VESSELS / 50 }, (_, k) => k * 50 + 49)])]];
    clock += 1000;
    for (let k = 0; k < clean.length; k += 50) await Promise.all(clean.slice(k, k + 50).map((v) => ingest(v, at, [])));
    await sleep(tickMs * 4);
    const ops = addRules ? [...(await mailAndHook('ops')), await contact('ops2 hook', 'webhook', `${HOOK}/ops2`)] : [];
    for (const [k, id] of ops.entries()) await rule(`Everything ${k}`, { notifyCleared: true, contactPointIds: [id] });
    const before = [await count(events), await count(notes)];
    const f = await offered(SECONDS);
    const more = `${(await count(events)) - before[0]!} alarm transitions, ${(await count(notes)) - before[1]!} notifications`;
    return `${Math.round(f.rps)} (p99 ${f.p99} ms, refused/failed ${f.refused + f.errors}); meanwhile ${more}`;
  };
  await db.query('UPDATE alarm_rules SET enabled = false');
  await offered(sized(5, 1)); // a warm-up at this rate, not measured (the first run at it is slower)
  const without = await churn(false);
  const withRules = await churn(true);
  row('4 ingest', `reports/s at ${RATE} offered, no rule`, without);
  row('4 ingest', `reports/s at ${RATE} offered, 3 rules matching everything`, withRules);
  await server.stop();
  return table;
}

/** BENCH_ENGINES=pglite or postgres runs one engine only. */
const only = process.env.BENCH_ENGINES;
const engines: ('pglite' | 'postgres')[] = [];
if (!only || only === 'pglite') engines.push('pglite');
if ((only === 'postgres' || (!only && !SMOKE)) && (await postgresAvailable())) engines.push('postgres');
const tables: [string, Record<string, string | number>[]][] = [];
for (const engine of engines) tables.push([engine, await run(engine)]);
console.log(
  `\nbench:notify — ${VESSELS.toLocaleString('en')} vessels, ${FAULTS} faults, storm ${STORM} alarms in ${STORM_S} s, outage ${DOWN_S} s; ` +
    `NOTIFY_TICK_MS=${tickMs} NOTIFY_DIGEST_SECONDS=${DIGEST_S} NOTIFY_RETRY_BASE_MS=${RETRY_BASE_MS} NOTIFY_RETRY_MAX_MS=${RETRY_MAX_MS} NOTIFY_MAX_ATTEMPTS=${MAX_ATTEMPTS}`,
);
for (const [engine, rows] of tables) {
  console.log(engine);
  console.table(rows);
}
receiver.close();
smtp.close();
