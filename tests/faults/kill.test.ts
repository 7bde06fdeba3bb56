import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { DEMO_ACCOUNTS } from '../../server/db/demoAccounts';
import { provisionOverHttp } from '../../server/simulator/provisionOverHttp';
import { multipart as sheetPart, xlsxOf } from '../api/deviceFixtures';

/**
 * Faults: the server started as production starts it (a child process on a data
 * folder, or on PostgreSQL in a throw-away schema) is killed with SIGKILL while it works, then
 * started again on the same data. Whatever the moment of the kill:
 * - a device import is all or nothing;
 * - every firmware row has its file and every file of the firmware folder has its row (no
 *   temporary file left either);
 * - every ingest request answered with code 0 before the kill has its reports stored;
 * - the server starts cleanly on what the kill left (prints its address, answers /ping, logs no error);
 * - every alarm of a storm reaches its webhook at least once, however far its notification had got
 *   (an outbox event, a pending row, a row leased by the killed worker, a message sent).
 * A kill that lands after the work completed checks the completed state: the invariants hold either way.
 */

type Engine = 'pglite' | 'postgres';
const engines: Engine[] = inject('pgUrl') ? ['pglite', 'postgres'] : ['pglite'];

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SEGMENT = 'test';
/** A loaded 2-core machine: a first start creates the PGlite cluster (initdb in WASM). */
const START_TIMEOUT_MS = 90_000;
const SERVER_VARS = [
  'PORT',
  'HOST',
  'DATABASE_URL',
  'DATA_DIR',
  'FIRMWARE_DIR',
  'FIRMWARE_MAX_MB',
  'CONSOLE_DIR',
  'SEED_DEMO',
  'SIMULATOR',
  'API_SEGMENT',
  'NODE_ENV',
  'LOG_LEVEL',
  'NOTIFY_ALLOW_PRIVATE_TARGETS',
  'NOTIFY_TICK_MS',
  'NOTIFY_DIGEST_SECONDS',
  'NOTIFY_LEASE_SECONDS',
  'NOTIFY_RETRY_BASE_MS',
];
/** What a clean start never prints: an error-level log line, a thrown error, a refusal to start. */
const ERROR_OUTPUT = /"level":(50|60)|\b(error|fatal|panic|unhandled)\b|could not start/i;
const IMPORT_ROWS = 3000;
const STORAGE_NAME = /^[0-9a-f-]{36}\.bin$/;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => T | Promise<T>, timeoutMs: number, everyMs = 20): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

const freePort = () =>
  new Promise<number>((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

interface Envelope<T = any> {
  code: number;
  msg: string;
  data: T;
}

/** The server as `npm run serve` runs it: node + tsx on server/main.ts, as a child process. */
class ServerProcess {
  output = '';
  exitCode: number | null | undefined = undefined;
  readonly exited: Promise<void>;
  constructor(
    readonly child: ChildProcess,
    readonly port: number,
  ) {
    for (const stream of [child.stdout!, child.stderr!]) stream.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = new Promise((done) =>
      child.on('exit', (code, signal) => {
        this.exitCode = code ?? (signal ? -1 : null);
        done();
      }),
    );
  }
  get running() {
    return this.exitCode === undefined;
  }
  get api() {
    return `http://127.0.0.1:${this.port}/cz/${SEGMENT}`;
  }
  async kill() {
    if (this.running) this.child.kill('SIGKILL');
    await this.exited;
  }
  async stop() {
    if (this.running) this.child.kill('SIGTERM');
    await Promise.race([this.exited, sleep(10_000)]);
    await this.kill();
  }
}

function serverEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of SERVER_VARS) delete env[key];
  return { ...env, ...extra };
}

/** Starts the server and waits for its printed address (another free port if one was taken meanwhile). */
async function launch(env: Record<string, string>): Promise<ServerProcess> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: ROOT,
      env: serverEnv({ ...env, PORT: String(port), HOST: '127.0.0.1' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const server = new ServerProcess(child, port);
    await until('the printed address', () => /Fleet console: \S+/.test(server.output) || !server.running, START_TIMEOUT_MS, 50).catch(
      async (e: Error) => {
        await server.kill();
        throw new Error(`${e.message}\n${server.output.slice(-3000)}`);
      },
    );
    if (server.running) return server;
    if (attempt < 3 && /port \d+ is in use/.test(server.output)) continue;
    throw new Error(`the server ended with ${server.exitCode} at start:\n${server.output.slice(-3000)}`);
  }
}

/** A clean start: the address printed, /ping answered, nothing logged as an error. */
async function expectCleanStart(server: ServerProcess) {
  expect(/Fleet console: (\S+)/.exec(server.output)?.[1]).toBe(`http://127.0.0.1:${server.port}/`);
  const ping = (await (await fetch(`${server.api}/ping`)).json()) as Envelope;
  expect(ping.code).toBe(0);
  expect(server.output).not.toMatch(ERROR_OUTPUT);
}

async function login(server: ServerProcess, name: string): Promise<string> {
  const account = DEMO_ACCOUNTS.find((a) => a.name === name)!;
  const res = await fetch(`${server.api}/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ name, password: account.password }),
  });
  const body = (await res.json()) as Envelope<{ token: string }>;
  if (body.code !== 0) throw new Error(`login ${name}: ${body.msg}`);
  return body.data.token;
}

async function callJson<T = any>(server: ServerProcess, path: string, token: string): Promise<Envelope<T>> {
  return (await (await fetch(`${server.api}${path}${path.includes('?') ? '&' : '?'}token=${token}&lang=en`)).json()) as Envelope<T>;
}

async function postJson<T = any>(server: ServerProcess, path: string, token: string, body: unknown): Promise<Envelope<T>> {
  const res = await fetch(`${server.api}${path}?token=${token}&lang=en`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Envelope<T>;
}

// ---- device import -----------------------------------------------------------------------

const SHEET_HEADERS = [
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
];
/** Device numbers of this run: a random block of 65,536 eight-digit hex numbers, well away from the demo and simulator ones. */
const NUM_BASE = 0xa0000000 + Math.floor(Math.random() * 0x1000) * 0x10000;
let numSerial = 0;

/** A sheet of valid rows whose SNs all start with `sn` (unique per sheet). */
async function deviceSheet(sn: string, rows: number): Promise<Buffer> {
  const data = Array.from({ length: rows }, (_, i) => {
    numSerial += 1;
    const hex = (NUM_BASE + numSerial).toString(16).toUpperCase();
    return [
      `Kill test ${sn} ${i}`,
      hex,
      `0E${hex}22`,
      `${sn}${i}`,
      'oceanic',
      0,
      new Date(Date.UTC(2023, 4, 17)),
      'VSAT terminal',
      'V1.2.0',
      'V1.0.3',
      'Factory 7',
      'VT-3',
      'VSAT',
    ];
  });
  return xlsxOf(SHEET_HEADERS, data);
}

async function importSheet(server: ServerProcess, token: string, sheet: Buffer): Promise<Envelope> {
  const body = sheetPart(sheet);
  const res = await fetch(`${server.api}/deviceModule/device/import?token=${token}&lang=en`, {
    method: 'POST',
    headers: body.headers,
    body: new Uint8Array(body.payload),
  });
  return (await res.json()) as Envelope;
}

/** PGlite's table and index files (base/<database>/<file>): path -> size. */
function relationFiles(dataDir: string): Map<string, number> {
  const sizes = new Map<string, number>();
  const base = join(dataDir, 'base');
  for (const database of readdirSync(base)) {
    if (!/^\d+$/.test(database)) continue;
    for (const file of readdirSync(join(base, database))) {
      try {
        sizes.set(`${database}/${file}`, statSync(join(base, database, file)).size);
      } catch {
        // dropped while we looked
      }
    }
  }
  return sizes;
}

const grewBy = (before: Map<string, number>, now: Map<string, number>, bytes: number) =>
  [...now].some(([file, size]) => size - (before.get(file) ?? 0) >= bytes);

// ---- firmware upload ---------------------------------------------------------------------

const firmwareFields = (version: string) => ({
  deviceType: 'VSAT terminal',
  customer: 'Kill test',
  model: 'VT-KILL',
  version,
  versionType: 'release',
  enabled: 'true',
  updateInfo: 'kill test',
});

interface Upload {
  /** Bytes of the file written to the socket so far. */
  sent(): number;
  /** Stops sending (the request is left hanging; the kill ends it). */
  stop(): void;
  /** The answer, or the error the request ended with. */
  result: Promise<{ answer?: Envelope; error?: string }>;
  /** SHA-256 of the whole file, once it was all sent. */
  sha256(): string | undefined;
}

/**
 * A multipart firmware upload through a plain socket: the fields, then `size` bytes of random
 * content in `chunk`-byte writes with `pauseMs` between them (0: as fast as the socket takes them);
 * with `lastChunkAfter`, the last chunk waits for that promise.
 */
function uploadFirmware(
  server: ServerProcess,
  token: string,
  version: string,
  size: number,
  chunk: number,
  pauseMs: number,
  lastChunkAfter?: Promise<unknown>,
): Upload {
  const boundary = `----kill${randomBytes(8).toString('hex')}`;
  const head = Buffer.concat([
    ...Object.entries(firmwareFields(version)).map(([name, value]) =>
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    ),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="kill-${version}.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
  ]);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const hash = createHash('sha256');
  let sent = 0;
  let stopped = false;
  let digest: string | undefined;
  const req = http.request(`${server.api}/deviceModule/firmware/add?token=${token}&lang=en`, {
    method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + size + tail.length },
  });
  const result = new Promise<{ answer?: Envelope; error?: string }>((done) => {
    req.on('error', (e) => done({ error: e.message }));
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => done({ answer: JSON.parse(text) as Envelope }));
      res.on('error', (e) => done({ error: e.message }));
    });
  });
  void (async () => {
    req.write(head);
    while (sent < size && !stopped && !req.destroyed) {
      if (lastChunkAfter && size - sent <= chunk) await lastChunkAfter;
      const bytes = randomBytes(Math.min(chunk, size - sent));
      hash.update(bytes);
      sent += bytes.length;
      if (!req.write(bytes)) await drainOrClose(req);
      if (pauseMs) await sleep(pauseMs);
    }
    if (sent === size && !req.destroyed) {
      digest = hash.digest('hex');
      req.end(tail);
    }
  })().catch(() => undefined);
  return { sent: () => sent, stop: () => (stopped = true), result, sha256: () => digest };
}

function drainOrClose(req: http.ClientRequest): Promise<void> {
  return new Promise((done) => {
    const finish = () => {
      req.off('drain', finish).off('close', finish);
      done();
    };
    req.on('drain', finish).on('close', finish);
  });
}

/** The firmware folder: name -> size. */
function folder(dir: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const name of readdirSync(dir)) {
    try {
      found.set(name, statSync(join(dir, name)).size);
    } catch {
      // renamed or removed while we looked
    }
  }
  return found;
}

/** Resolves with the firmware folder when `test` holds for it (looked at every 5 ms). */
async function whenFolder(dir: string, test: (files: Map<string, number>) => boolean, timeoutMs: number): Promise<Map<string, number>> {
  let files = folder(dir);
  await until('the firmware folder', () => test((files = folder(dir))), timeoutMs, 5).catch((e: Error) => {
    throw new Error(`${e.message}: ${[...files].map(([name, bytes]) => `${name} ${bytes} B`).join(', ')}`);
  });
  return files;
}

/** Every file of the folder is a stored package file with its row, and every row has its file (same size, same SHA-256). */
function expectFolderMatchesRows(dir: string, rows: { key?: string; size: number; sha256: string }[]) {
  const files = [...folder(dir).keys()];
  expect(
    files.filter((f) => !STORAGE_NAME.test(f)),
    'temporary or foreign files in the firmware folder',
  ).toEqual([]);
  const onDisk = files.map((f) => ({ key: f, size: statSync(join(dir, f)).size, sha256: sha256(readFileSync(join(dir, f))) }));
  // Rows from the API carry no storage key: then files and rows are matched by size and hash.
  const withKeys = rows.every((r) => r.key !== undefined);
  const view = (r: { key?: string; size: number; sha256: string }) => `${withKeys ? `${r.key} ` : ''}${r.size} ${r.sha256}`;
  expect(onDisk.map(view).sort(), 'firmware files against firmware rows').toEqual(rows.map(view).sort());
}

/** The same check through the API (while a PGlite server holds its folder): rows by size and SHA-256. */
async function expectFolderMatchesApi(server: ServerProcess, token: string, dir: string) {
  const list = await callJson<{ list: { fileSize: number; sha256: string }[]; total: number }>(
    server,
    '/deviceModule/firmware/getAll?pageSize=500',
    token,
  );
  expect(list.code).toBe(0);
  expectFolderMatchesRows(
    dir,
    list.data.list.map((r) => ({ size: r.fileSize, sha256: r.sha256 })),
  );
}

// ---- ingest ------------------------------------------------------------------------------

const reportAt = (at: number) => ({
  deviceTime: new Date(at).toISOString(),
  lat: 22.3,
  lon: 114.2,
  speed: 14.5,
  heading: 90,
  azimuth: 180.5,
  elevation: 45,
  skew: -12,
  satellite: { name: 'AsiaSat 7', longitude: 105.5 },
  signalLevel: 72,
  snr: 11.5,
  modemLock: true,
  txOn: true,
  lteSignal: -85,
  faults: [],
  firmware: { adu: 'V2.1.3', bdu: 'V1.0.9' },
});

interface Burst {
  /** Device number -> device times (ms) of every report whose request was answered with code 0. */
  acked: Map<string, number[]>;
  ackedRequests(): number;
  failedBeforeKill(): string[];
  /** Stops sending (call at the kill); resolves when every worker has ended. */
  stop(): Promise<void>;
}

/** `workers` concurrent senders, each posting batches of `batch` reports with fresh device times, round robin over the devices. */
function ingestBurst(server: ServerProcess, devices: { deviceNum: string; secret: string }[], workers: number, batch: number): Burst {
  const acked = new Map<string, number[]>(devices.map((d) => [d.deviceNum, []]));
  const next = new Map<string, number>(devices.map((d) => [d.deviceNum, Date.now() - 3 * 3_600_000]));
  const failed: string[] = [];
  let requests = 0;
  let stopped = false;
  const loops = Array.from({ length: workers }, async (_, w) => {
    for (let round = 0; !stopped; round++) {
      const device = devices[(w + round) % devices.length]!;
      const start = next.get(device.deviceNum)!;
      next.set(device.deviceNum, start + batch * 1000);
      const times = Array.from({ length: batch }, (_, i) => start + i * 1000);
      try {
        const res = await fetch(`${server.api}/deviceModule/ingest/report`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-device-num': device.deviceNum, 'x-device-secret': device.secret },
          body: JSON.stringify({ reports: times.map(reportAt) }),
        });
        const body = (await res.json()) as Envelope<{ accepted: number }>;
        if (body.code === 0 && body.data.accepted === batch) {
          acked.get(device.deviceNum)!.push(...times);
          requests += 1;
        } else if (!stopped) failed.push(`${body.code} ${body.msg}`);
      } catch (error) {
        if (!stopped) failed.push((error as Error).message);
        return;
      }
    }
  });
  return {
    acked,
    ackedRequests: () => requests,
    failedBeforeKill: () => failed,
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

// ---- alarm notifications ------------------------------------------------------------------

/**
 * The worker's settings in these runs: receivers on 127.0.0.1, a short lease (a killed worker's rows
 * are sent again 5 s after their claim), a 1 s storm window (2 messages a second, the rest in digests).
 */
const NOTIFY_ENV = {
  NOTIFY_ALLOW_PRIVATE_TARGETS: '1',
  NOTIFY_TICK_MS: '100',
  NOTIFY_DIGEST_SECONDS: '1',
  NOTIFY_LEASE_SECONDS: '5',
  NOTIFY_RETRY_BASE_MS: '200',
};
/** Raised and gone in turns: a rule from 'minor' takes all three (critical, major, minor). */
const STORM_FAULTS = ['E01', 'E03', 'E11'];
/** Alarms each storm request raises: [none, faults, none, faults] clears the last request's, raises, clears, raises. */
const ALARMS_PER_REQUEST = 2 * STORM_FAULTS.length;

interface Delivery {
  /** The notice ids it carried (one, or a digest's). */
  ids: string[];
  /** When the receiver answered 200 (never, when the server died first). */
  answeredAt?: number;
}

interface Receiver {
  url: string;
  /** Every webhook message, in the order it arrived. */
  deliveries: Delivery[];
  /** Called as each message arrives, before its slow answer. */
  onDelivery?: () => void;
  close(): Promise<void>;
}

/** A webhook receiver in the test process that answers 200 after `minMs` to `maxMs`. */
async function slowReceiver(minMs: number, maxMs: number): Promise<Receiver> {
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as { id: string; event: string; notifications?: { id: string }[] };
      const delivery: Delivery = { ids: body.event === 'digest' ? body.notifications!.map((n) => n.id) : [body.id] };
      receiver.deliveries.push(delivery);
      receiver.onDelivery?.();
      setTimeout(
        () => {
          if (!res.socket || res.socket.destroyed) return; // the server was killed meanwhile
          delivery.answeredAt = Date.now();
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        },
        minMs + Math.random() * (maxMs - minMs),
      );
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const receiver: Receiver = {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    deliveries: [],
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
  return receiver;
}

interface Storm {
  /** Ingest requests answered with code 0 (each raised ALARMS_PER_REQUEST alarms). */
  acked(): number;
  failedBeforeKill: string[];
  stop(): Promise<void>;
}

/** One sender per device, each posting [none, faults, none, faults] with fresh device times, `pauseMs` apart. */
function alarmStorm(server: ServerProcess, devices: { deviceNum: string; secret: string }[], pauseMs: number): Storm {
  let acked = 0;
  let stopped = false;
  const failedBeforeKill: string[] = [];
  const loops = devices.map(async (device) => {
    let at = Date.now() - 3 * 3_600_000;
    while (!stopped) {
      const reports = [0, 1, 2, 3].map((i) => ({ ...reportAt(at + i * 1000), faults: i % 2 ? STORM_FAULTS : [] }));
      at += reports.length * 1000;
      try {
        const res = await fetch(`${server.api}/deviceModule/ingest/report`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-device-num': device.deviceNum, 'x-device-secret': device.secret },
          body: JSON.stringify({ reports }),
        });
        const body = (await res.json()) as Envelope<{ accepted: number }>;
        if (body.code === 0 && body.data.accepted === reports.length) acked += 1;
        else if (!stopped) failedBeforeKill.push(`${body.code} ${body.msg}`);
      } catch (error) {
        if (!stopped) failedBeforeKill.push((error as Error).message);
        return;
      }
      await sleep(pauseMs);
    }
  });
  return {
    acked: () => acked,
    failedBeforeKill,
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

// ---- the runs ------------------------------------------------------------------------------

interface Sql {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

describe.each(engines)('SIGKILL during work, then a restart on the same data, on %s', (engine) => {
  const work = mkdtempSync(join(tmpdir(), `fleet-kill-${engine}-`));
  const dataDir = join(work, 'pglite');
  const firmwareDir = join(work, 'firmware');
  const pgUrl = inject('pgUrl');
  const schema = `kill_${randomBytes(6).toString('hex')}`;
  const appName = `fleet-kill-${schema}`;
  let databaseUrl = '';
  let server: ServerProcess | undefined;
  /** Sheets imported while the server was killed: SN prefix -> rows. */
  const sheets = new Map<string, number>();
  /** Sheets whose import answered code 0 before the kill (they must be there whole). */
  const answeredSheets = new Set<string>();
  let burst: Burst | undefined;

  const start = async () => {
    server = await launch({
      DATA_DIR: dataDir,
      FIRMWARE_DIR: firmwareDir,
      DATABASE_URL: databaseUrl,
      SIMULATOR: '0',
      CONSOLE_DIR: join(work, 'no-console'),
      LOG_LEVEL: 'warn',
      ...NOTIFY_ENV,
    });
    await expectCleanStart(server);
    return server;
  };
  const running = async () => (server?.running ? server : start());

  /** PostgreSQL: the server's statements in flight, seen by its application_name. */
  let watcher: pg.Client | undefined;
  const serverRunsSql = async (prefix: string) => {
    const rows = await watcher!.query(`SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND query LIKE $2 AND state <> 'idle'`, [
      appName,
      `${prefix}%`,
    ]);
    return rows.rowCount! > 0;
  };

  /** SQL on the data: PGlite opens the folder (the server must be stopped), PostgreSQL the schema. */
  const openSql = async (): Promise<Sql> => {
    if (engine === 'postgres') {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      return { query: async (sql, params) => (await client.query(sql, params)).rows, close: () => client.end() };
    }
    const lite = await PGlite.create(dataDir);
    return { query: async <T>(sql: string, params?: unknown[]) => (await lite.query<T>(sql, params)).rows, close: () => lite.close() };
  };

  beforeAll(async () => {
    if (engine === 'postgres') {
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      await admin.end();
      const u = new URL(pgUrl);
      u.searchParams.set('options', `-c search_path=${schema}`);
      u.searchParams.set('application_name', appName);
      databaseUrl = u.toString();
      watcher = new pg.Client({ connectionString: pgUrl });
      await watcher.connect();
    }
    await start();
  });

  afterAll(async () => {
    await burst?.stop();
    await server?.kill();
    await watcher?.end();
    if (engine === 'postgres') {
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    }
    rmSync(work, { recursive: true, force: true });
  });

  it('keeps a device import all or nothing when killed during its transaction', async () => {
    let s = await running();
    let token = await login(s, 'oceanic');
    const sheet = await deviceSheet('KILLB', IMPORT_ROWS);
    sheets.set('KILLB', IMPORT_ROWS);
    let answer: Envelope | undefined;
    const sentAt = Date.now();
    const request = importSheet(s, token, sheet).then(
      (a) => (answer = a),
      () => undefined,
    );
    if (engine === 'postgres') {
      // The server's INSERT INTO devices seen running (or its transaction open after one).
      await until('the import INSERT', async () => answer || (await serverRunsSql('INSERT INTO devices')), 60_000, 2);
    } else {
      // PGlite runs in the server's thread, which a transaction blocks till its commit, so nothing
      // answers meanwhile; but PostgreSQL extends a table's file as rows come in, commit or not.
      const before = relationFiles(dataDir);
      await until('the devices table growing', () => answer || grewBy(before, relationFiles(dataDir), 128 * 1024), 60_000, 2);
    }
    const killedAt = Date.now() - sentAt;
    await s.kill();
    await request;
    if (answer?.code === 0) answeredSheets.add('KILLB');

    s = await start();
    token = await login(s, 'oceanic');
    for (const [sn, rows] of sheets) {
      const found = await callJson<{ total: number }>(s, `/deviceModule/device/getAll?search=${sn}&pageSize=1`, token);
      expect(found.code).toBe(0);
      if (answeredSheets.has(sn)) expect(found.data.total, sn).toBe(rows);
      else expect([0, rows], sn).toContain(found.data.total);
      console.log(
        `[${engine}] import killed ${answer ? `after its answer (code ${answer.code})` : `during its transaction, ${killedAt} ms into the request`}: ${found.data.total} of ${rows} rows after the restart`,
      );
    }
  });

  it('leaves no firmware file without its row, nor a row without its file, and loses no acknowledged report, when killed mid-upload, as an upload completes and mid-burst', async () => {
    let s = await running();
    const devices = await provisionOverHttp({ apiBase: s.api, vessels: 8, seed: 7, user: 'admin', password: 'admin123', owner: 'oceanic' });
    let admin = await login(s, 'admin');
    const stored = [
      uploadFirmware(s, admin, 'V1.0.0', 1024 * 1024, 64 * 1024, 0),
      uploadFirmware(s, admin, 'V1.0.4', 64 * 1024, 64 * 1024, 0),
    ];
    for (const upload of stored) expect((await upload.result).answer).toMatchObject({ code: 0, data: { sha256: upload.sha256() } });
    const before = new Set(folder(firmwareDir).keys());
    const temporary = (files: Map<string, number>) => [...files].filter(([name]) => !STORAGE_NAME.test(name));

    // In flight at the kill: a slow upload (64 KB every 20 ms of 64 MB, at least 20 s) well under
    // way on disk; a burst of ingest reports (24 requests at a time) with at least 40 answered;
    // and a fast upload whose file has just been completed on disk. The fast one sends all but its
    // last chunk first, and that chunk once the burst has its answers: the kill fires the moment
    // the whole file is on disk (under its temporary name, or already under its own).
    const slow = uploadFirmware(s, admin, 'V1.0.1', 64 * 1024 * 1024, 64 * 1024, 20);
    let release = () => {};
    const released = new Promise<void>((r) => (release = r));
    const size = 4 * 1024 * 1024 + 12_345;
    let fast: Upload | undefined;
    try {
      const slowPart = temporary(
        await whenFolder(firmwareDir, (files) => temporary(files).some(([, bytes]) => bytes >= 512 * 1024), 60_000),
      )[0]![0];
      fast = uploadFirmware(s, admin, 'V1.0.2', size, 256 * 1024, 0, released);
      await whenFolder(
        firmwareDir,
        (files) => temporary(files).some(([name, bytes]) => name !== slowPart && bytes >= size - 512 * 1024),
        60_000,
      );
      burst = ingestBurst(s, devices, 24, 5);
      await until('40 acknowledged ingest requests', () => burst!.ackedRequests() >= 40 || burst!.failedBeforeKill().length > 0, 60_000, 1);
      release();
      await whenFolder(
        firmwareDir,
        (files) => [...files].some(([name, bytes]) => (STORAGE_NAME.test(name) ? !before.has(name) : name !== slowPart && bytes === size)),
        60_000,
      );
      const stopped = burst.stop(); // no new request; those in flight stay in flight
      await s.kill();
      await stopped;
    } finally {
      release();
      slow.stop();
      fast?.stop();
      await burst?.stop();
    }
    expect(burst!.failedBeforeKill()).toEqual([]);
    expect((await slow.result).answer, 'the slow upload cannot have finished').toBeUndefined();
    const { answer } = await fast!.result;
    const left = [...folder(firmwareDir)]
      .filter(([name]) => !before.has(name))
      .map(([name, bytes]) => `${name} ${bytes} B`)
      .join(', ');
    console.log(
      `[${engine}] killed with ${burst!.ackedRequests()} ingest requests answered, ${(slow.sent() / 1024 / 1024).toFixed(1)} MB of the slow upload sent${answer ? `, the fast upload answered (code ${answer.code})` : ''}; left: ${left}`,
    );

    // Kill points too narrow to hit by timing, laid out as such a kill leaves them: an upload whose
    // row committed before its file was renamed, a delete that did not commit, and a delete that
    // committed before its file was removed.
    const [notRenamed, notDeleted] = [...before].sort();
    renameSync(join(firmwareDir, notRenamed!), join(firmwareDir, `.${notRenamed}.part`));
    renameSync(join(firmwareDir, notDeleted!), join(firmwareDir, `.${notDeleted}.del`));
    writeFileSync(join(firmwareDir, `.${randomUUID()}.bin.del`), randomBytes(1000));

    s = await start();
    admin = await login(s, 'admin');
    await expectFolderMatchesApi(s, admin, firmwareDir);
    expect(folder(firmwareDir).has(notRenamed!) && folder(firmwareDir).has(notDeleted!), 'both files back under their names').toBe(true);
    // And the store still works after the sweep: an upload is kept, a delete takes its file.
    const again = uploadFirmware(s, admin, 'V1.0.3', 256 * 1024, 64 * 1024, 0);
    expect((await again.result).answer).toMatchObject({ code: 0, data: { sha256: again.sha256() } });
    const removed = await fetch(
      `${s.api}/deviceModule/firmware/deleteById?id=${(await stored[1]!.result).answer!.data.id}&token=${admin}`,
      { method: 'DELETE' },
    );
    expect(((await removed.json()) as Envelope).code).toBe(0);
    await expectFolderMatchesApi(s, admin, firmwareDir);
  });

  it('has, in SQL after a clean stop, the invariants: whole imports, a row for each firmware file and every acknowledged report', async () => {
    const s = await running();
    await s.stop();
    expect(s.exitCode).toBe(0);
    const sql = await openSql();
    try {
      for (const [sn, rows] of sheets) {
        const [{ n }] = (await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM devices WHERE device_sn LIKE $1', [`${sn}%`])) as [
          { n: number },
        ];
        if (answeredSheets.has(sn)) expect(n, sn).toBe(rows);
        else expect([0, rows], sn).toContain(n);
      }
      const firmware = await sql.query<{ key: string; size: number; sha256: string }>(
        'SELECT storage_key AS key, file_size::float8 AS size, sha256 FROM firmware_packages',
      );
      expect(firmware.length).toBeGreaterThanOrEqual(2);
      expectFolderMatchesRows(firmwareDir, firmware);

      expect(burst, 'the burst ran').toBeDefined();
      let acknowledged = 0;
      for (const [deviceNum, times] of burst!.acked) {
        acknowledged += times.length;
        const stored = await sql.query<{ ms: number }>(
          `SELECT (extract(epoch FROM r.device_time) * 1000)::float8 AS ms FROM device_reports r JOIN devices d ON d.id = r.device_id
            WHERE d.device_num = $1 AND r.device_time = ANY($2::timestamptz[])`,
          [deviceNum, times.map((t) => new Date(t).toISOString())],
        );
        expect(stored.map((r) => Math.round(r.ms)).sort(), `acknowledged reports of ${deviceNum}`).toEqual([...times].sort());
      }
      expect(acknowledged).toBeGreaterThanOrEqual(200);
    } finally {
      await sql.close();
    }
  });

  it('delivers every alarm notification at least once when killed during a storm of them', async () => {
    let s = await running();
    const receiver = await slowReceiver(200, 500);
    let storm: Storm | undefined;
    try {
      const name = `Kill storm ${randomBytes(3).toString('hex')}`;
      let token = await login(s, 'oceanic');
      const contact = await postJson<{ id: number }>(s, '/supportModule/contactPoint/add', token, {
        name,
        channel: 'webhook',
        target: `${receiver.url}/storm`,
        secret: 'kill-storm-secret',
        language: 'en',
        timeZone: 'UTC',
        enabled: true,
      });
      expect(contact.code, contact.msg).toBe(0);
      const rule = await postJson<{ id: number }>(s, '/supportModule/alarmRule/add', token, {
        name,
        enabled: true,
        minSeverity: 'minor',
        notifyCleared: false,
        contactPointIds: [contact.data.id],
      });
      expect(rule.code, rule.msg).toBe(0);
      const keyOf = (alarmId: number) => `${alarmId}-raised-${rule.data.id}-c${contact.data.id}`;
      const devices = await provisionOverHttp({
        apiBase: s.api,
        vessels: 4,
        seed: 9,
        user: 'admin',
        password: 'admin123',
        owner: 'oceanic',
      });

      // The storm runs until the receiver holds its third message (or a later one, once 200 alarms
      // were raised); 100 ms later, with that message still unanswered, the server is killed.
      let killDue = false;
      receiver.onDelivery = () => {
        if (receiver.deliveries.length >= 3 && storm!.acked() * ALARMS_PER_REQUEST >= 200) killDue = true;
      };
      storm = alarmStorm(s, devices, 50);
      await until('a third webhook message during the storm', () => killDue || storm!.failedBeforeKill.length > 0, 30_000, 1);
      await sleep(100);
      const inFlight = receiver.deliveries.filter((d) => d.answeredAt === undefined).length;
      const stopped = storm.stop();
      await s.kill();
      await stopped;
      expect(storm.failedBeforeKill).toEqual([]);
      expect(inFlight, 'a message unanswered at the kill').toBeGreaterThan(0);
      const messagesBefore = receiver.deliveries.length;
      const reachedBefore = new Set(receiver.deliveries.flatMap((d) => d.ids));
      const answeredBefore = new Set(receiver.deliveries.filter((d) => d.answeredAt !== undefined).flatMap((d) => d.ids));

      // What the kill left: the storm's alarms, and how far each one's notification had got.
      let sql = await openSql();
      let expected: string[];
      let atKill: { outbox: number; pending: number; leased: number; sent: number };
      try {
        const alarms = await sql.query<{ id: number }>(
          'SELECT a.id::int AS id FROM alarms a JOIN devices d ON d.id = a.device_id WHERE d.device_num = ANY($1::text[])',
          [devices.map((d) => d.deviceNum)],
        );
        expected = alarms.map((a) => keyOf(a.id));
        [atKill] = (await sql.query<typeof atKill>(
          `SELECT (SELECT count(*)::int FROM alarm_outbox WHERE event = 'raised' AND alarm_id = ANY($2::bigint[])) AS outbox,
                  count(*) FILTER (WHERE state = 'pending')::int AS pending,
                  count(*) FILTER (WHERE state = 'pending' AND lease_until IS NOT NULL)::int AS leased,
                  count(*) FILTER (WHERE state = 'sent')::int AS sent
             FROM notifications WHERE contact_point_id = $1`,
          [contact.data.id, alarms.map((a) => a.id)],
        )) as [typeof atKill];
      } finally {
        await sql.close();
      }
      const acked = storm.acked();
      // Every alarm an acknowledged request raised is there (a request in flight at the kill may add its own).
      expect(expected.length).toBeGreaterThanOrEqual(acked * ALARMS_PER_REQUEST);
      expect(reachedBefore.size, 'some but not all notifications reached the receiver before the kill').toBeGreaterThan(0);
      expect(reachedBefore.size).toBeLessThan(expected.length);

      // The restart: what was claimed by the dead worker is sent again once its lease ends, the rest as it comes.
      const restartedAt = Date.now();
      s = await start();
      token = await login(s, 'oceanic');
      const logTotal = async (state: string) =>
        (
          await callJson<{ total: number }>(
            s,
            `/supportModule/notification/getAll?search=${encodeURIComponent(name)}&state=${state}&pageIndex=1&pageSize=1`,
            token,
          )
        ).data.total;
      const seen = () => new Set(receiver.deliveries.flatMap((d) => d.ids));
      const waited = await until(
        'every alarm of the storm notified, its row sent',
        async () =>
          expected.every((key) => seen().has(key)) && (await logTotal('pending')) === 0 && (await logTotal('sent')) >= expected.length,
        45_000,
        250,
      ).then(
        () => undefined,
        (e: Error) => e,
      );
      const doneIn = Date.now() - restartedAt;
      await s.stop();
      expect(s.exitCode).toBe(0);

      // In SQL, after a clean stop: a row per alarm, every row of the contact point sent, nothing left in the outbox.
      sql = await openSql();
      try {
        const rows = await sql.query<{ key: string; state: string; attempts: number; lastError: string | null }>(
          'SELECT key, state, attempts, last_error AS "lastError" FROM notifications WHERE contact_point_id = $1',
          [contact.data.id],
        );
        const byKey = new Map(rows.map((r) => [r.key, r]));
        const got = seen();
        const missing = expected.filter((key) => !got.has(key));
        expect(
          missing.map((key) => `${key}: ${byKey.has(key) ? JSON.stringify(byKey.get(key)) : 'no row'}`),
          'notifications the receiver never saw (lost)',
        ).toEqual([]);
        expect(
          expected.filter((key) => !byKey.has(key)),
          'alarms without a notification row',
        ).toEqual([]);
        expect(rows.filter((r) => r.state !== 'sent').map((r) => `${r.key} ${r.state} ${r.attempts} ${r.lastError}`)).toEqual([]);
        const [left] = (await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM alarm_outbox`)) as [{ n: number }];
        expect(left.n, 'events left in the outbox').toBe(0);
      } finally {
        await sql.close();
      }
      if (waited) throw waited;

      const occurrences = receiver.deliveries.reduce((n, d) => n + d.ids.length, 0);
      const resent = receiver.deliveries
        .slice(messagesBefore)
        .flatMap((d) => d.ids)
        .filter((id) => reachedBefore.has(id));
      console.log(
        `[${engine}] notification storm: ${expected.length} alarms (${acked} ingest requests answered); killed with ${messagesBefore} messages received ` +
          `(${inFlight} unanswered), ${reachedBefore.size} notifications reached the receiver (${answeredBefore.size} answered, ${atKill.sent} marked sent); ` +
          `left at the kill: ${atKill.outbox} in the outbox, ${atKill.pending} pending (${atKill.leased} leased by the killed worker); ` +
          `after the restart: ${receiver.deliveries.length - messagesBefore} messages, all ${expected.length} seen ${(doneIn / 1000).toFixed(1)} s after it; ` +
          `${occurrences - seen().size} duplicates (${new Set(resent).size} re-sent of those reached before the kill)`,
      );
    } finally {
      await storm?.stop();
      await receiver.close();
    }
  });
});
