import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db, type Queryable } from '../../server/db/connection';
import { openLite } from '../../server/db/pgliteSession';
import { copyOnline } from '../../server/ops/backup/onlineCopy';

/**
 * The embedded database copied while it goes on (server/ops/backup/onlineCopy.ts): rows written
 * during the copy are in it once its WAL is replayed, and a copy whose WAL was recycled meanwhile
 * is made again.
 */
describe('an online copy of the embedded database', () => {
  const root = mkdtempSync(join(tmpdir(), 'fleet-online-copy-'));
  const folder = join(root, 'pglite');
  let db: Db;
  beforeAll(async () => {
    db = await openDb({ databaseUrl: '', dataDir: folder });
    await db.query('CREATE TABLE log (id serial PRIMARY KEY, note text NOT NULL)');
    await db.query("INSERT INTO log (note) SELECT 'before ' || i FROM generate_series(1, 5000) i");
  });
  afterAll(async () => {
    await db.close();
    rmSync(root, { recursive: true, force: true });
  });

  /** The database, with `before(sql)` run ahead of each statement the copy sends. */
  const meddled = (before: (sql: string) => Promise<void>): Queryable => ({
    query: async (sql, params) => {
      await before(sql);
      return db.query(sql, params);
    },
  });

  /** Opens a copy as the restore does (its WAL replayed) and reads what it holds. */
  async function readCopy(copy: string) {
    const lite = await openLite({ folder: copy });
    try {
      const rows = (
        await lite.query<{ n: number; last: string }>(
          "SELECT count(*)::int AS n, max(note) FILTER (WHERE note LIKE 'during%') AS last FROM log",
        )
      ).rows;
      return rows[0]!;
    } finally {
      await lite.close();
    }
  }

  it('holds the rows written while its files were copied, once its WAL is replayed', async () => {
    // Rows go in between the backup's start and its end, while the files are copied; WAL moves on into new segments.
    const copy = join(root, 'copy-1');
    let during = 0;
    await copyOnline(
      meddled(async (sql) => {
        if (!sql.includes('pg_backup_stop') || during) return;
        during = 1;
        await db.query("INSERT INTO log (note) SELECT 'during ' || lpad(i::text, 4, '0') FROM generate_series(1, 3000) i");
        await db.query('SELECT pg_switch_wal()');
      }),
      folder,
      copy,
      join(root, 'none'),
    );
    expect(readdirSync(copy)).toContain('backup_label');
    expect(await readCopy(copy)).toEqual({ n: 8000, last: 'during 3000' });
  });

  it('is made again when a checkpoint recycled the WAL it needs, and fails saying so when that goes on', async () => {
    // Two checkpoints past new segments, between the start and the end: the start's segment is recycled.
    const recycle = async () => {
      for (let i = 0; i < 2; i++) {
        await db.query("INSERT INTO log (note) VALUES ('filler')");
        await db.query('SELECT pg_switch_wal()');
        await db.query('CHECKPOINT');
      }
    };
    let tries = 0;
    const once = join(root, 'copy-2');
    await copyOnline(
      meddled(async (sql) => {
        if (sql.includes('pg_backup_stop') && ++tries === 1) await recycle();
      }),
      folder,
      once,
      join(root, 'none'),
    );
    expect(tries).toBeGreaterThanOrEqual(2);
    expect((await readCopy(once)).n).toBe(8002);

    const never = join(root, 'copy-3');
    await expect(
      copyOnline(
        meddled(async (sql) => {
          if (sql.includes('pg_backup_stop')) await recycle();
        }),
        folder,
        never,
        join(root, 'none'),
      ),
    ).rejects.toThrow(/WAL the copy needs was recycled/);
    // The database is left able to take the next backup.
    const after = join(root, 'copy-4');
    await copyOnline(db, folder, after, join(root, 'none'));
    expect((await readCopy(after)).n).toBe(8008);
  });
});
