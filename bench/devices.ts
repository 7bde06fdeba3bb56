/**
 * npm run bench:devices - the device list and the Excel import under load.
 * For each engine (PGlite in memory; PostgreSQL in a scratch schema when one answers at
 * BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test, dropped afterwards):
 * at 100,000 devices (BENCH_SIZES=10000,100000 for more sizes), getAll through the whole HTTP
 * stack (app.inject, session check included), p50 and p99, side by side with the trivial /ping
 * route in the same run: first, middle and last page, each filter, sorts, search (a common and a
 * rare term), as an admin, an enterprise (level 2) and a sub-user (level 3); then an Excel import
 * of 10,000 rows (time, peak RSS; BENCH_IMPORT=0 skips it). BENCH_ENGINES=postgres runs one engine.
 * BENCH_SMOKE=1: 2,000 devices, 5 runs each, an import of 300 rows, PGlite only (bench/smoke.ts).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { startServer } from '../server/start';
import type { Db } from '../server/db/connection';
import { insertDevices } from '../server/modules/devices/importQueries';
import { DEVICE_KINDS } from '../src/domain/deviceKinds';
import type { DeviceInput } from '../src/domain/deviceSchemas';
import { sized } from './smoke';

const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SIZES = (process.env.BENCH_SIZES ?? sized('100000', '2000')).split(',').map(Number);
const ENGINES = (process.env.BENCH_ENGINES ?? sized('pglite,postgres', 'pglite')).split(',');
const IMPORT = process.env.BENCH_IMPORT !== '0';
const RUNS = Number(process.env.BENCH_RUNS ?? sized(200, 5));
const IMPORT_ROWS = sized(10_000, 300);

interface Bench {
  app: FastifyInstance;
  db: Db;
  base: string;
  close(): Promise<void>;
}

async function pgAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function open(engine: 'pglite' | 'postgres'): Promise<Bench> {
  let databaseUrl = '';
  let drop = async () => {};
  if (engine === 'postgres') {
    const schema = `bench_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    const url = new URL(PG_URL);
    url.searchParams.set('options', `-c search_path=${schema}`);
    databaseUrl = url.toString();
    drop = async () => {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    };
  }
  const { app, db, config } = await startServer({ databaseUrl, dataDir: 'memory://', logLevel: 'silent', seedDemo: true });
  return {
    app,
    db,
    base: `/cz/${config.apiSegment}`,
    close: async () => {
      await app.close();
      await drop();
    },
  };
}

/** Adds devices (spread over the two demo enterprises, every kind and state) up to a total. */
async function fillTo(b: Bench, total: number): Promise<void> {
  const [row] = await b.db.query<{ n: number; max: number }>('SELECT count(*)::int AS n, COALESCE(max(id), 0)::int AS max FROM devices');
  const owners = (await b.db.query<{ id: number }>(`SELECT id FROM users WHERE name IN ('oceanic', 'polaris') ORDER BY id`)).map(
    (r) => r.id,
  );
  const devices: DeviceInput[] = [];
  for (let i = row!.max + 1; devices.length < total - row!.n; i++) {
    const hex = (0x10000000 + i).toString(16).toUpperCase();
    devices.push({
      name: `Vessel ${String(i).padStart(6, '0')}`,
      deviceNum: hex,
      mac: `02.00.${hex.match(/../g)!.join('.')}`,
      deviceSn: `BSN${i}`,
      ownerId: owners[Math.floor(i / 7) % 2]!,
      ownerSubId: 0,
      manufactureDate: '2023-06-01',
      deviceType: `Type ${i % 8}`,
      aduVersion: 'V2.0.1',
      bduVersion: 'V1.4.0',
      manufactureInfo: 'Bench factory',
      deviceModel: 'BM-1',
      deviceKind: DEVICE_KINDS[i % DEVICE_KINDS.length]!,
    });
  }
  for (let start = 0; start < devices.length; start += 20_000)
    await b.db.transaction((tx) => insertDevices(tx, devices.slice(start, start + 20_000)));
  await b.db.query(`UPDATE devices SET status = id % 3, activated = id % 5 <> 0 WHERE id > $1`, [row!.max]);
  await b.db.exec(b.db.engine === 'postgres' ? 'VACUUM ANALYZE devices' : 'ANALYZE devices');
}

async function login(b: Bench, name: string, password: string): Promise<string> {
  const res = await b.app.inject({
    method: 'POST',
    url: `${b.base}/users/login`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `name=${name}&password=${password}`,
  });
  return res.json().data.token;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function timePage(b: Bench, token: string, query: string, runs = RUNS): Promise<{ p50: number; p99: number; total: string }> {
  const url = token === 'ping' ? `${b.base}/ping` : `${b.base}/deviceModule/device/getAll?token=${token}&${query}`;
  let total = '';
  for (let i = 0; i < Math.min(20, runs); i++) {
    const data = (await b.app.inject({ url })).json().data;
    total = data.total === undefined ? '' : `${data.totalEstimated ? '~' : ''}${data.total}`;
  }
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    const res = await b.app.inject({ url });
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (res.json().code !== 0) throw new Error(res.body);
  }
  times.sort((x, y) => x - y);
  return { p50: percentile(times, 50), p99: percentile(times, 99), total };
}

async function importXlsx(b: Bench, token: string): Promise<{ ms: number; bytes: number; rssBefore: number; rssPeak: number }> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('devices');
  sheet.addRow([
    'Name',
    'Device number',
    'MAC',
    'SN',
    'Owner',
    'Sub-user',
    'Manufacture date',
    'Type',
    'ADU version',
    'BDU version',
    'Manufacture info',
    'Model',
    'Kind',
  ]);
  for (let i = 0; i < IMPORT_ROWS; i++) {
    const hex = (0xe0000000 + i).toString(16).toUpperCase();
    sheet.addRow([
      `Imported ${i}`,
      hex,
      `0C${hex}00`,
      `XSN${i}`,
      i % 2 ? 'oceanic' : 'polaris',
      0,
      new Date(Date.UTC(2022, 1, 2)),
      'VSAT',
      'V1',
      'V1',
      'factory',
      'M1',
      'VSAT',
    ]);
  }
  const file = Buffer.from(await workbook.xlsx.writeBuffer());
  const boundary = '----bench';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="d.xlsx"\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  }, 10);
  const started = Date.now();
  const res = await b.app.inject({
    method: 'POST',
    url: `${b.base}/deviceModule/device/import?token=${token}`,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  const ms = Date.now() - started;
  clearInterval(sampler);
  rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  if (res.json().code !== 0) throw new Error(res.body.slice(0, 500));
  return { ms, bytes: file.length, rssBefore, rssPeak };
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
const ms = (n: number) => `${n.toFixed(2)} ms`.padStart(10);

async function benchEngine(engine: 'pglite' | 'postgres') {
  const b = await open(engine);
  try {
    for (const size of SIZES) {
      const fillStart = Date.now();
      await fillTo(b, size);
      console.log(
        `\n${engine}, ${size.toLocaleString('en')} devices (filled in ${((Date.now() - fillStart) / 1000).toFixed(1)} s), ${RUNS} runs each:`,
      );
      const admin = await login(b, 'admin', 'admin123');
      const oceanic = await login(b, 'oceanic', 'oceanic123');
      const oceanops = await login(b, 'oceanops', 'oceanops123');
      /** The exact number of matches, counted here (the answer's total may be an estimate). */
      const exact = async (token: string, filter: string) => {
        let n = 0;
        for (let page = 1; ; page++) {
          const list = (
            await b.app.inject({ url: `${b.base}/deviceModule/device/getAll?token=${token}&${filter}&pageSize=500&pageIndex=${page}` })
          ).json().data.list as unknown[];
          n += list.length;
          if (list.length < 500) return n;
          if (page > 400) throw new Error('too many');
        }
      };
      const totalOf = async (token: string, filter: string) => {
        const total = (await timePage(b, token, filter, 1)).total;
        return total.startsWith('~') ? exact(token, filter) : Number(total);
      };
      const last = async (token: string, filter: string) =>
        `${filter}&pageSize=20&pageIndex=${Math.max(1, Math.ceil((await totalOf(token, filter)) / 20))}`;
      const middle = async (token: string, filter: string) =>
        `${filter}&pageSize=20&pageIndex=${Math.max(1, Math.ceil((await totalOf(token, filter)) / 40))}`;
      const [oceanicId] = (await b.db.query<{ id: number }>(`SELECT id FROM users WHERE name = 'oceanic'`)).map((r) => r.id);
      const cases: [string, string, string][] = [
        ['ping (trivial route, no database)', 'ping', ''],
        ['admin, first page', admin, 'pageIndex=1&pageSize=20'],
        ['admin, middle page', admin, await middle(admin, 'sort=id')],
        ['admin, last page', admin, await last(admin, 'sort=id')],
        ['admin, kind=vsat, page 2', admin, 'deviceKind=vsat&pageIndex=2&pageSize=20'],
        ['admin, type="Type 3", page 2', admin, 'deviceType=Type%203&pageIndex=2&pageSize=20'],
        ['admin, ownerId=oceanic, page 2', admin, `ownerId=${oceanicId}&pageIndex=2&pageSize=20`],
        ['admin, status=1, page 2', admin, 'status=1&pageIndex=2&pageSize=20'],
        ['admin, not activated, page 2', admin, 'activated=false&pageIndex=2&pageSize=20'],
        ['admin, ungrouped (groupId=0), page 2', admin, 'groupId=0&pageIndex=2&pageSize=20'],
        ['admin, kind=vsat & status=1, middle page', admin, await middle(admin, 'deviceKind=vsat&status=1')],
        ['admin, kind=vsat & status=1, last page', admin, await last(admin, 'deviceKind=vsat&status=1')],
        ['admin, type="Type 3", last page', admin, await last(admin, 'deviceType=Type%203')],
        ['admin, not activated, last page', admin, await last(admin, 'activated=false')],
        ['admin, sorted by name desc, page 2', admin, 'sort=name&order=desc&pageIndex=2&pageSize=20'],
        ['admin, sorted by name, middle page', admin, await middle(admin, 'sort=name')],
        ['admin, sorted by type desc, middle page', admin, await middle(admin, 'sort=deviceType&order=desc')],
        ['admin, search common "vessel 0"', admin, 'search=vessel%200&pageSize=20'],
        ['admin, search common, middle page', admin, await middle(admin, 'search=vessel%200')],
        ['admin, search "Vessel 0012" (100)', admin, 'search=Vessel%200012&pageSize=20'],
        ['admin, search rare "bsn77777"', admin, 'search=bsn77777&pageSize=20'],
        ['admin, search absent "zzqq"', admin, 'search=zzqq&pageSize=20'],
        ['enterprise, first page', oceanic, 'pageIndex=1&pageSize=20'],
        ['enterprise, middle page', oceanic, await middle(oceanic, 'sort=id')],
        ['enterprise, kind=4g, last page', oceanic, await last(oceanic, 'deviceKind=4g')],
        ['enterprise, search common "vessel 0"', oceanic, 'search=vessel%200&pageSize=20'],
        ['enterprise, search rare "bsn77777"', oceanic, 'search=bsn77777&pageSize=20'],
        ['sub-user, first page', oceanops, 'pageIndex=1&pageSize=20'],
        ['sub-user, search "vessel"', oceanops, 'search=vessel&pageSize=20'],
      ];
      // Index-only scans need the visibility map: vacuum again once the set-up has settled.
      await b.db.exec('VACUUM ANALYZE devices');
      console.log(`  ${'getAll'.padEnd(42)}${'p50'.padStart(10)}${'p99'.padStart(10)}   total`);
      for (const [label, token, query] of cases) {
        const r = await timePage(b, token, query);
        console.log(`  ${label.padEnd(42)}${ms(r.p50)}${ms(r.p99)}   ${r.total}`);
      }
    }
    if (!IMPORT) return;
    const admin = await login(b, 'admin', 'admin123');
    const r = await importXlsx(b, admin);
    console.log(
      `  Excel import of ${IMPORT_ROWS.toLocaleString('en')} rows (${mb(r.bytes)} file, into ${SIZES.at(-1)!.toLocaleString('en')}): ${(r.ms / 1000).toFixed(2)} s, RSS ${mb(r.rssBefore)} before, ${mb(r.rssPeak)} peak`,
    );
  } finally {
    await b.close();
  }
}

if (ENGINES.includes('pglite')) await benchEngine('pglite');
if (!ENGINES.includes('postgres')) {
  /* skipped by BENCH_ENGINES */
} else if (await pgAvailable()) await benchEngine('postgres');
else console.log(`\nPostgreSQL: nothing answered at ${PG_URL}; skipped.`);
