import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { request } from 'node:http';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { loginToken, postgresAvailable, startBenchServer } from './benchServer';
import { hashDeviceSecret } from '../server/auth/deviceCredentials';
import { startFirmwareAgent } from '../server/simulator/firmwareAgent';
import { SMOKE, sized } from './smoke';

/**
 * bench:firmware — (1) a 200 MB package uploaded through HTTP (multipart, streamed from disk by
 * the client): time, throughput and the server process's peak RSS over its RSS before; (2) a
 * rollout to 1,000 simulated devices, 100 at a time, driven through the device API (check,
 * download 1 MB, report progress, install): time until every device is updated or failed.
 * On PGlite and, when it answers, PostgreSQL. Prints figures; asserts nothing.
 * BENCH_SMOKE=1: a 5 MB package, a rollout to 10 devices, 5 at a time, PGlite only (bench/smoke.ts).
 */
const UPLOAD_MB = Number(process.env.BENCH_FIRMWARE_MB ?? sized(200, 5));
const DEVICES = Number(process.env.BENCH_FIRMWARE_DEVICES ?? sized(1000, 10));
const AT_A_TIME = sized(100, 5);
const SECRET = 'bench-firmware-secret';
const MB = 1024 * 1024;

async function makeFile(dir: string, bytes: number): Promise<string> {
  const path = join(dir, 'package.bin');
  const out = createWriteStream(path);
  const chunk = randomBytes(MB);
  for (let written = 0; written < bytes; written += MB) {
    chunk[0] = written & 255;
    if (!out.write(chunk.subarray(0, Math.min(MB, bytes - written)))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return path;
}

/** Multipart upload streamed from disk: the client holds one chunk at a time. */
function upload(
  url: string,
  fields: Record<string, string>,
  path: string,
  size: number,
): Promise<{ code: number; msg: string; data: { sha256: string; fileSize: number } }> {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    Object.entries(fields)
      .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + size + tail.length },
      },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve(JSON.parse(body)));
      },
    );
    req.on('error', reject);
    req.write(head);
    const file = createReadStream(path);
    file.pipe(req, { end: false });
    file.on('end', () => req.end(tail));
  });
}

async function run(engine: 'pglite' | 'postgres', dir: string, bigFile: string, smallFile: string) {
  const server = await startBenchServer(engine, { firmwareDir: join(dir, `store-${engine}`) });
  const token = await loginToken(server.url, 'admin', 'admin123');
  const addUrl = `${server.url}/deviceModule/firmware/add?token=${token}`;
  // A shared package (customer 'all'): the bench's vessels belong to the demo's Oceanic, and a package
  // named for another customer is not offered to them (docs/api.md, firmware).
  const fields = { deviceType: 'Bench terminal', customer: 'all', model: 'B-1', versionType: 'release', enabled: 'true' };

  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const t0 = performance.now();
  const big = await upload(addUrl, { ...fields, version: 'V9.0.0' }, bigFile, UPLOAD_MB * MB);
  const uploadMs = performance.now() - t0;
  clearInterval(sampler);
  if (big.code !== 0) throw new Error(`upload refused: ${JSON.stringify(big)}`);

  const [{ id: owner }] = (await server.db.query<{ id: number }>(`SELECT id FROM users WHERE name = 'oceanic'`)) as [{ id: number }];
  const devices = await server.db.query<{ id: number; num: string }>(
    `INSERT INTO devices (name, device_num, device_sn, owner_id, manufacture_date, device_type, adu_version, bdu_version,
       manufacture_info, device_model, device_kind, activated, activated_at, secret_hash)
     SELECT 'Bench vessel ' || g, 'F' || lpad(upper(to_hex(g)), 7, '0'), 'FWBENCH' || g, $1, '2024-01-01', 'Bench terminal', 'V2.0.0', 'V1.0.0',
            'bench', 'B-1', 'vsat', true, now(), $2
       FROM generate_series(0, $3::int - 1) g RETURNING id, device_num AS num`,
    [owner, hashDeviceSecret(SECRET), DEVICES],
  );
  const small = await upload(addUrl, { ...fields, version: 'V9.0.1' }, smallFile, MB);
  const rollout = await fetch(`${server.url}/deviceModule/firmware/rollout/add?token=${token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      firmwareId: (small.data as unknown as { id: number }).id,
      deviceIds: devices.map((d) => d.id),
      maxConcurrent: AT_A_TIME,
    }),
  }).then((r) => r.json() as Promise<{ code: number; data: { id: number } }>);
  if (rollout.code !== 0) throw new Error(`rollout refused: ${JSON.stringify(rollout)}`);

  const errors: string[] = [];
  const agent = startFirmwareAgent({
    apiBase: server.url,
    devices: devices.map((d) => ({ deviceNum: d.num, secret: SECRET })),
    seed: 7,
    pollMs: 3_600_000,
    stepMs: 0,
    failureRate: 0.01,
    concurrency: 64,
    onError: (m) => errors.length < 5 && errors.push(m),
  });
  const counts = async () =>
    (
      await server.db.query<{ state: string; n: number }>(
        'SELECT state, count(*)::int AS n FROM firmware_rollout_targets WHERE rollout_id = $1 GROUP BY state',
        [rollout.data.id],
      )
    ).reduce<Record<string, number>>((acc, r) => ({ ...acc, [r.state]: r.n }), {});
  const t1 = performance.now();
  let c = await counts();
  let rounds = 0;
  while ((c.updated ?? 0) + (c.failed ?? 0) < DEVICES && performance.now() - t1 < 600_000) {
    await agent.pollNow();
    rounds += 1;
    c = await counts();
  }
  const rolloutMs = performance.now() - t1;
  await agent.stop();
  server.app.server.closeAllConnections();
  await server.stop();
  return {
    engine,
    [`upload ${UPLOAD_MB} MB s`]: +(uploadMs / 1000).toFixed(2),
    'upload MB/s': Math.round(UPLOAD_MB / (uploadMs / 1000)),
    'RSS before MB': Math.round(before / MB),
    'peak RSS MB': Math.round(peak / MB),
    'RSS growth MB': Math.round((peak - before) / MB),
    [`rollout ${DEVICES} devices s`]: +(rolloutMs / 1000).toFixed(1),
    updated: c.updated ?? 0,
    failed: c.failed ?? 0,
    'check rounds': rounds,
    'agent checks': agent.stats.checks,
    'MB downloaded': Math.round(agent.stats.bytes / MB),
    errors: errors.join(' | '),
  };
}

const dir = await mkdtemp(join(tmpdir(), 'bench-firmware-'));
try {
  console.log(`Writing a ${UPLOAD_MB} MB package to ${dir} ...`);
  const bigFile = await makeFile(dir, UPLOAD_MB * MB);
  const smallFile = await makeFile(await mkdtemp(join(dir, 's-')), MB);
  console.log(
    `(${(await stat(bigFile)).size} bytes) rollout: ${DEVICES} devices, ${AT_A_TIME} at a time, 1 MB package, 1% seeded failures`,
  );
  const engines: ('pglite' | 'postgres')[] = !SMOKE && (await postgresAvailable()) ? ['pglite', 'postgres'] : ['pglite'];
  const rows = [];
  for (const engine of engines) rows.push(await run(engine, dir, bigFile, smallFile));
  console.table(rows);
} finally {
  await rm(dir, { recursive: true, force: true });
}
