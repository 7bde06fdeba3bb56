import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDb } from '../../server/db/connection';
import { schemaObjectCount, tableSums, type TableSum } from '../../server/ops/backup/backupQueries';
import { createTestServer, type TestServer } from './helpers';
import { packageFields, upload } from './firmwareFixtures';
import { minutely, seedReports } from './trackFixtures';

/** npm run move-to-postgres as an operator runs it; `killOn` kills it (SIGKILL) when a line of its output matches. */
function move(env: Record<string, string>, to: string, killOn?: RegExp): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('npx', ['tsx', 'server/ops/backup/cli.ts', 'move-to-postgres', '--to', to], {
      env: { ...process.env, ...env },
      detached: true, // its own process group: the kill reaches the node process under npx and tsx
    });
    let out = '';
    let killed = false;
    const read = (chunk: Buffer) => {
      out += chunk.toString();
      if (!killed && killOn?.test(out)) {
        killed = true;
        process.kill(-child.pid!, 'SIGKILL');
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('close', (code) => resolve({ code, out }));
  });
}

const shipOf = async (s: TestServer) =>
  (
    await s.db.query<{ id: number }>(
      "SELECT d.id FROM devices d JOIN users u ON u.id = d.owner_id WHERE u.name = 'oceanic' ORDER BY d.id LIMIT 1",
    )
  )[0]!.id;

/** The track of three fixed days (a window ending now would move while the move runs). */
const trackTo = new Date(Math.floor(Date.now() / 60_000) * 60_000);
const trackFrom = new Date(trackTo.getTime() - 3 * 86_400_000);
async function track(s: TestServer): Promise<{ t: number[] }> {
  const token = await s.login('oceanic');
  const range = `from=${trackFrom.toISOString()}&to=${trackTo.toISOString()}`;
  const res = await s.call<{ track: { t: number[] } }>({
    url: `${s.base}/deviceModule/history/track?deviceId=${await shipOf(s)}&window=custom&${range}`,
    token,
  });
  expect(res.code).toBe(0);
  return res.data.track;
}

const withoutSessions = (sums: TableSum[]) => sums.filter((t) => t.table !== 'sessions');

// PostgreSQL is the target: this suite needs the server globalSetup found (CI always has it).
describe.runIf(inject('pgUrl'))('move-to-postgres', () => {
  const pgUrl = inject('pgUrl');
  const root = mkdtempSync(join(tmpdir(), 'fleet-move-'));
  const folders = { dataDir: join(root, 'data', 'pglite'), firmwareDir: join(root, 'data', 'firmware') };
  const schema = `t_move_${randomBytes(4).toString('hex')}`;
  const target = (() => {
    const u = new URL(pgUrl);
    u.searchParams.set('options', `-c search_path=${schema}`);
    return u.toString();
  })();
  const admin = new pg.Client({ connectionString: pgUrl });
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close().catch(() => undefined);
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
    await admin.end();
    rmSync(root, { recursive: true, force: true });
  });
  const sourceSums = async () => {
    const db = await openDb({ databaseUrl: '', dataDir: folders.dataDir });
    try {
      return await db.transaction((tx) => tableSums(tx));
    } finally {
      await db.close();
    }
  };

  it('copies everything into an empty schema, checked by counts and checksums; a killed move leaves it empty and runs again', async () => {
    const s = await createTestServer('pglite', folders);
    servers.push(s);
    await seedReports(
      s.db,
      await shipOf(s),
      minutely(40_000, 0, (i) => ({ lat: 10 + Math.sin(i / 200) * 0.5, lon: 120 + i * 0.0002, signal: 50 + (i % 40) })),
    );
    const token = await s.login('admin');
    expect((await upload(s, token, packageFields({ version: 'V2.0.0' }), randomBytes(200_000))).code).toBe(0);
    const trackBefore = await track(s);
    expect(trackBefore.t.length).toBeGreaterThan(5);
    await s.close();
    servers.length = 0;
    const before = await sourceSums();
    const env = { DATA_DIR: folders.dataDir, FIRMWARE_DIR: folders.firmwareDir, DATABASE_URL: '' };

    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);

    // Killed while it copies the reports: the target is as empty as before, the source unchanged.
    const killed = await move(env, target, /Copying device_reports/);
    expect(killed.code).toBeNull();
    expect(await schemaObjectCount({ query: async (sql, p) => (await admin.query(sql, p)).rows }, schema)).toBe(0);

    const done = await move(env, target);
    expect(done.out).toContain('counts and checksums match the source');
    expect(done.code).toBe(0);
    expect(done.out).toContain('Login sessions were not moved');
    expect(await sourceSums()).toEqual(before);

    // A second move into the filled schema is refused (exit 2).
    const again = await move(env, target);
    expect(again.code).toBe(2);
    expect(again.out).toContain('already holds tables');

    // The server on PostgreSQL: the same rows, the same track, and new rows after the moved ones.
    const moved = await createTestServer('postgres', { databaseUrl: target, firmwareDir: folders.firmwareDir });
    servers.push(moved);
    expect(withoutSessions(await moved.db.transaction((tx) => tableSums(tx)))).toEqual(withoutSessions(before));
    expect(await track(moved)).toEqual(trackBefore);
    const [next] = await moved.db.query<{ ok: boolean }>(
      `SELECT nextval(pg_get_serial_sequence('devices', 'id')) > (SELECT max(id) FROM devices) AS ok`,
    );
    expect(next!.ok).toBe(true);
    const firmware = await moved.call<{ list: { version: string }[] }>({
      url: `${moved.base}/deviceModule/firmware/getAll`,
      token: await moved.login('admin'),
    });
    expect(firmware.data.list.map((f) => f.version)).toContain('V2.0.0');
  }, 300_000);

  it('refuses without a target, with a server running on the folder, or from a missing folder, with a clear message', async () => {
    const missing = await move({ DATA_DIR: join(root, 'nothing', 'pglite'), DATABASE_URL: '' }, target);
    expect(missing.code).toBe(2);
    expect(missing.out).toContain('No embedded database in');
    const running = await createTestServer('pglite', {
      dataDir: join(root, 'live', 'pglite'),
      firmwareDir: join(root, 'live', 'firmware'),
    });
    servers.push(running);
    const busy = await move({ DATA_DIR: join(root, 'live', 'pglite'), DATABASE_URL: '' }, target);
    expect(busy.code).toBe(2);
    expect(busy.out).toContain('The server is running on this data folder');
  }, 120_000);
});
