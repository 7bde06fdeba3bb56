import { copyFile, cp, readdir, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Queryable } from '../../db/connection';
import { backupStart, backupStop } from './backupQueries';

/** A WAL segment's file: timeline, log and segment, 24 hex digits, in order by name. */
const WAL_SEGMENT = /^[0-9A-F]{24}$/;
/** Files a base backup leaves out, as pg_basebackup does: the running server's own, and temporary ones that may vanish meanwhile. */
const SKIPPED = new Set(['postmaster.pid', 'postmaster.opts', 'backup_label', 'tablespace_map', 'pg_internal.init']);
const SKIPPED_UNDER = ['pg_stat_tmp', 'pg_replslot', 'pg_dynshmem', 'pg_notify', 'pg_serial', 'pg_snapshots', 'pg_subtrans'];
const vanished = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Copies the embedded database's folder while it goes on serving, as PostgreSQL's online base
 * backups do (docs/architecture.md, "Backup and restore"): between pg_backup_start and
 * pg_backup_stop the folder's files are copied as they are, pages half-written included; then the
 * WAL segments from the backup's checkpoint to its end, the backup_label that tells the copy's
 * first start where to replay them from, and pg_control last. The copy is consistent once it has
 * been opened (the replay). The console and the ingest wait only for the checkpoint.
 * `leaveOut`: a folder inside the data folder that is no part of it (a backup folder put there).
 */
export async function copyOnline(db: Queryable, folder: string, copy: string, leaveOut: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    if (await copyOnce(db, folder, copy, leaveOut)) return;
    await rm(copy, { recursive: true, force: true });
    if (attempt === 3)
      throw new Error(
        'The WAL the copy needs was recycled, or its files changed, while it was made, three times over: take the backup again later',
      );
  }
}

/**
 * One try: false when a checkpoint during the copy recycled the oldest WAL it needs (older segments
 * go first), or a file vanished while the folder was walked.
 */
async function copyOnce(db: Queryable, folder: string, copy: string, leaveOut: string): Promise<boolean> {
  const walFolder = join(folder, 'pg_wal');
  const { from } = await backupStart(db, `fleet-console backup ${new Date().toISOString()}`);
  let stop: Awaited<ReturnType<typeof backupStop>> | null = null;
  try {
    // The WAL is copied after the stop, when it holds the whole backup; the segments before it are not needed.
    const copied = await cp(folder, copy, {
      recursive: true,
      filter: (path) =>
        path !== leaveOut &&
        !path.startsWith(`${leaveOut}/`) &&
        !(dirname(path) === walFolder && WAL_SEGMENT.test(basename(path))) &&
        !SKIPPED.has(basename(path)) &&
        !basename(path).startsWith('pgsql_tmp') &&
        !SKIPPED_UNDER.some((dir) => dirname(path) === join(folder, dir)),
    }).then(
      () => true,
      // A file dropped while the folder was walked (a table rewritten, a sort's spill): the copy is made again.
      (error: unknown) => (vanished(error) ? false : Promise.reject(error)),
    );
    stop = await backupStop(db);
    if (!copied) return false;
  } finally {
    // A failed copy ends the backup too: this connection could not start another one otherwise.
    if (!stop) await backupStop(db).catch(() => undefined);
  }
  const { to, label, tablespaceMap } = stop;
  const needed = (await readdir(walFolder)).filter((name) => WAL_SEGMENT.test(name) && name >= from && name <= to);
  if (!needed.includes(from) || !needed.includes(to)) return false;
  try {
    for (const name of needed) await copyFile(join(walFolder, name), join(copy, 'pg_wal', name));
  } catch (error) {
    if (vanished(error)) return false;
    throw error;
  }
  await writeFile(join(copy, 'backup_label'), label);
  if (tablespaceMap) await writeFile(join(copy, 'tablespace_map'), tablespaceMap);
  // pg_control last, as pg_basebackup does: the copy made during the backup may have caught it mid-write.
  await copyFile(join(folder, 'global', 'pg_control'), join(copy, 'global', 'pg_control'));
  return true;
}
