import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestServer, engines, type Engine, type TestServer } from './helpers';
import { tableSums, type TableSum } from '../../server/ops/backup/backupQueries';
import { backupsOf } from '../../server/ops';
import { createBackup } from '../../server/ops/backup/backup';
import * as tar from 'tar';
import { ErrorCode } from '../../src/domain/errorCodes';
import type { BackupStatus } from '../../src/domain/backupSettings';
import { until } from './notifyFixtures';
import { minutely, seedReports } from './trackFixtures';
import { packageFields, upload } from './firmwareFixtures';

const run = promisify(execFile);

/** The backup CLI as an operator runs it (npm run backup / restore), with its settings in the environment. */
async function cli(args: string[], env: Record<string, string>): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run('npx', ['tsx', 'server/ops/backup/cli.ts', ...args], {
      env: { ...process.env, ...env },
      timeout: 120_000,
    });
    return { code: 0, out: stdout };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: `${e.stdout}${e.stderr}` };
  }
}

/** Tables the calls made after the backup write to: sessions, the audit log, live events, the backup's own run record. */
const VOLATILE = ['sessions', 'audit_log', 'live_events', 'backup_runs'];
const stable = (t: TableSum) => !VOLATILE.includes(t.table);
const sumsOf = (s: TestServer) => s.db.transaction((tx) => tableSums(tx));

/** A demo login and a vessel's track answer on a server: what an operator checks after a restore. */
async function loginAndTrack(s: TestServer): Promise<number> {
  const token = await s.login('oceanic');
  const track = await s.call<{ track: { t: number[] } }>({
    url: `${s.base}/deviceModule/history/track?deviceId=${await shipOf(s)}&window=3d`,
    token,
  });
  expect(track.code).toBe(0);
  return track.data.track.t.length;
}

const shipOf = async (s: TestServer) =>
  (
    await s.db.query<{ id: number }>(
      "SELECT d.id FROM devices d JOIN users u ON u.id = d.owner_id WHERE u.name = 'oceanic' ORDER BY d.id LIMIT 1",
    )
  )[0]!.id;

describe.each(engines)('backup and restore on %s', (engine: Engine) => {
  const root = mkdtempSync(join(tmpdir(), 'fleet-backup-'));
  const folders = { dataDir: join(root, 'data', 'pglite'), firmwareDir: join(root, 'data', 'firmware'), backupDir: join(root, 'backups') };
  const servers: TestServer[] = [];
  let schemaUrl = '';
  afterAll(async () => {
    for (const s of servers) await s.close().catch(() => undefined);
    if (schemaUrl) {
      const schema = new URL(schemaUrl).searchParams.get('options')!.split('=')[1]!;
      const c = new pg.Client({ connectionString: schemaUrl });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
    }
    rmSync(root, { recursive: true, force: true });
  });
  const overrides = engine === 'pglite' ? folders : { firmwareDir: folders.firmwareDir, backupDir: folders.backupDir };

  it('backs up while serving, restores into an empty place only, and the restored server has every row, file, login and track', async () => {
    const s = await createTestServer(engine, overrides);
    servers.push(s);
    schemaUrl = s.databaseUrl;
    // Two days of a vessel's reports, a minute apart, across partitions' rollups.
    await seedReports(
      s.db,
      await shipOf(s),
      minutely(2880, 0, (i) => ({ lat: 10 + i * 0.001, lon: 120 + i * 0.002, signal: 60 + (i % 30) })),
    );
    // PGlite: WAL goes on into new segments, leaving spent ones in the folder that a backup leaves out.
    if (engine === 'pglite')
      for (let i = 0; i < 3; i++) await s.db.query("SELECT pg_logical_emit_message(false, 'test', 'x'), pg_switch_wal()");
    const admin = await s.login('admin');
    for (const version of ['V1.0.0', 'V1.1.0'])
      expect((await upload(s, admin, packageFields({ version }), randomBytes(300_000))).code).toBe(0);
    const status = (token = admin) => s.call<BackupStatus>({ url: `${s.base}/supportModule/backup/status`, token });

    // Level 1 only, on the server.
    const oceanic = await s.login('oceanic');
    expect((await status(oceanic)).code).toBe(ErrorCode.Forbidden);
    expect((await s.call({ method: 'POST', url: `${s.base}/supportModule/backup/run`, token: oceanic })).code).toBe(ErrorCode.Forbidden);

    // Bad settings: every bad field at once, in the caller's language; nothing saved.
    const bad = await s.call({
      method: 'POST',
      url: `${s.base}/supportModule/backup/updateSettings`,
      token: admin,
      lang: 'zh',
      payload: { nightly: true, hourUtc: 24, keepCount: 0 },
    });
    expect(bad.code).toBe(ErrorCode.Validation);
    expect(bad.data).toEqual([
      { field: 'hourUtc', message: '备份时间必须是 0 到 23 的整点（UTC）' },
      { field: 'keepCount', message: '保留的备份数必须是 1 到 365 的整数' },
    ]);
    expect((await status()).data.settings).toEqual({ nightly: true, hourUtc: 3, keepCount: 7 });
    const saved = await s.call<BackupStatus>({
      method: 'POST',
      url: `${s.base}/supportModule/backup/updateSettings`,
      token: admin,
      payload: { nightly: true, hourUtc: 2, keepCount: 3 },
    });
    expect(saved.data.settings).toEqual({ nightly: true, hourUtc: 2, keepCount: 3 });

    // "Back up now": the answer comes at once, the result shows in the status when it ends.
    const started = await s.call<BackupStatus>({ method: 'POST', url: `${s.base}/supportModule/backup/run`, token: admin });
    expect(started.data.running?.kind).toBe('manual');
    const done = await until(async () => {
      const now = (await status()).data;
      return !now.running && now.runs[0] ? now : null;
    }, 60_000);
    expect(done.runs[0]).toMatchObject({ kind: 'manual', ok: true, message: null });
    expect(done.runs[0]!.sizeBytes).toBeGreaterThan(100_000);
    const file = join(folders.backupDir, done.runs[0]!.file!);
    expect(existsSync(file)).toBe(true);
    if (engine === 'pglite') {
      // A backup into a folder inside the data folder leaves that folder out of the copy, and nothing is left beside it.
      const inside = join(folders.dataDir, 'backups-inside');
      await createBackup(s.db, { ...folders, databaseUrl: '' }, { to: inside });
      const archive = join(
        inside,
        readdirSync(inside).find((f) => f.endsWith('.tar'))!,
      );
      const entries: string[] = [];
      await tar.t({ file: archive, onReadEntry: (e) => entries.push(e.path) });
      expect(entries).toContain('database.tar.gz');
      const unpacked = mkdtempSync(join(root, 'inside-'));
      await tar.x({ file: archive, cwd: unpacked });
      const database: string[] = [];
      await tar.t({ file: join(unpacked, 'database.tar.gz'), onReadEntry: (e) => database.push(e.path) });
      expect(database).toContain('PG_VERSION');
      expect(database.filter((p) => p.includes('backups-inside'))).toEqual([]);
      // An online copy: its backup_label tells its first start where to replay the WAL from, and only the WAL
      // segments from the backup's checkpoint to its end are in it; the spent ones stay out (the restore below starts without them).
      expect(database).toContain('backup_label');
      const segments = (names: string[]) => names.map((p) => p.replace(/^.*pg_wal\//, '')).filter((n) => /^[0-9A-F]{24}$/.test(n));
      const archived = segments(database.filter((p) => p.includes('pg_wal/')));
      const inFolder = segments(readdirSync(join(folders.dataDir, 'pg_wal')));
      expect(archived.length).toBeGreaterThan(0);
      expect(inFolder.filter((n) => !archived.includes(n)).length).toBeGreaterThanOrEqual(3);
      rmSync(inside, { recursive: true });
      expect(readdirSync(join(folders.dataDir, '..')).filter((f) => f.startsWith('.backup-copy-'))).toEqual([]);
    }

    // What the backup must bring back: every table but those the calls since have written to (the
    // restore itself checks those too, against the sums taken with the dump).
    const before: TableSum[] = await sumsOf(s);
    expect(before.find((t) => t.table === 'device_reports')!.rows).toBeGreaterThan(1000);
    const firmware = readdirSync(folders.firmwareDir).filter((f) => f.endsWith('.bin'));
    expect(firmware).toHaveLength(2);
    const trackBefore = await loginAndTrack(s);

    // Wipe: the server stops, its database and firmware folder go.
    await s.close();
    servers.length = 0;
    rmSync(folders.firmwareDir, { recursive: true, force: true });
    if (engine === 'pglite') rmSync(folders.dataDir, { recursive: true, force: true });
    const env: Record<string, string> =
      engine === 'pglite'
        ? { DATA_DIR: folders.dataDir, FIRMWARE_DIR: folders.firmwareDir, DATABASE_URL: '' }
        : { DATABASE_URL: schemaUrl, FIRMWARE_DIR: folders.firmwareDir };

    const restored = await cli(['restore', file], env);
    expect(restored.out).toContain('counts and checksums match the backup');
    expect(restored.code).toBe(0);
    expect(
      readdirSync(folders.firmwareDir)
        .filter((f) => f.endsWith('.bin'))
        .sort(),
    ).toEqual(firmware.sort());

    // A second restore onto the restored data is refused (exit 2) and changes nothing; --force replaces it.
    const refused = await cli(['restore', file], env);
    expect(refused.code).toBe(2);
    expect(refused.out).toMatch(/not empty|already holds tables/);
    expect((await cli(['restore', file, '--force'], env)).code).toBe(0);

    const again = await createTestServer(engine, engine === 'pglite' ? folders : { ...overrides, databaseUrl: schemaUrl });
    servers.push(again);
    const after = await sumsOf(again);
    expect(after.filter(stable)).toEqual(before.filter(stable));
    expect(after.filter(stable).length).toBeGreaterThan(40);
    expect(await loginAndTrack(again)).toBe(trackBefore);
  }, 240_000);

  it('takes the nightly backup once its hour has come, once a day, and keeps only the newest ones', async () => {
    const nightlyDir = join(root, 'nightly');
    const s = await createTestServer(engine, { backupDir: nightlyDir, firmwareDir: join(root, 'nightly-firmware') });
    servers.push(s);
    const backups = backupsOf(s.app)!;
    // Three older backups in the folder; two are kept.
    mkdirSync(nightlyDir, { recursive: true });
    for (const day of ['01', '02', '03']) writeFileSync(join(nightlyDir, `fleet-backup-202601${day}-030000Z.tar`), 'old');
    await s.db.query('UPDATE backup_settings SET hour_utc = 23, keep_count = 2');
    if (new Date().getUTCHours() < 23) {
      await backups.nightly();
      expect(readdirSync(nightlyDir)).toHaveLength(3); // not yet its hour
    }
    await s.db.query('UPDATE backup_settings SET hour_utc = 0');
    await backups.nightly();
    await backups.nightly(); // once a day
    const runs = await s.db.query<{ kind: string; ok: boolean }>('SELECT kind, ok FROM backup_runs');
    expect(runs).toEqual([{ kind: 'nightly', ok: true }]);
    const kept = readdirSync(nightlyDir).sort();
    expect(kept).toHaveLength(2);
    expect(kept[0]).toBe('fleet-backup-20260103-030000Z.tar');
    if (engine === 'pglite') {
      // A server in memory dumps its folder whole (dumpDataDir): that backup restores onto disk too.
      const restored = await cli(['restore', join(nightlyDir, kept[1]!)], {
        DATA_DIR: join(root, 'from-memory'),
        FIRMWARE_DIR: join(root, 'from-memory-firmware'),
        DATABASE_URL: '',
      });
      expect(restored.out).toContain('counts and checksums match the backup');
      expect(restored.code).toBe(0);
    }
    await s.db.query('UPDATE backup_settings SET nightly = false');
    await s.db.query('DELETE FROM backup_runs');
    await backups.nightly();
    expect(await s.db.query('SELECT 1 FROM backup_runs')).toHaveLength(0);
  }, 120_000);

  it('refuses a file that is not a backup, and a backup of the other engine, with a clear message', async () => {
    const junk = join(root, 'junk.tar');
    await run('bash', ['-c', `head -c 4096 /dev/urandom > ${junk}`]);
    const env: Record<string, string> =
      engine === 'pglite'
        ? { DATA_DIR: join(root, 'empty', 'pglite'), DATABASE_URL: '' }
        : { DATABASE_URL: schemaUrl || 'postgres://127.0.0.1/test' };
    const result = await cli(['restore', junk], env);
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/not a readable backup archive|not a backup/);
    expect((await cli(['restore', join(root, 'nothing.tar')], env)).out).toContain('No backup file at');
  }, 60_000);
});
