import { copyFile, cp, readdir, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Queryable } from '../../db/connection';
import { backupStart, backupStop } from './backupQueries';

/** A WAL segment's file: timeline, log and segment, 24 hex digits, in order by name. */
const WAL_SEGMENT = /^[0-9A-F]{24}$/;

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
      throw new Error('The WAL the copy needs was recycled while it was made, three times over: take the backup again later');
  }
}

/** One try: false when a checkpoint during the copy recycled the oldest WAL it needs (older segments go first). */
async function copyOnce(db: Queryable, folder: string, copy: string, leaveOut: string): Promise<boolean> {
  const walFolder = join(folder, 'pg_wal');
  const { from } = await backupStart(db, `fleet-console backup ${new Date().toISOString()}`);
  let stop: Awaited<ReturnType<typeof backupStop>> | null = null;
  try {
    // The WAL is copied after the stop, when it holds the whole backup; the segments before it are not needed.
    await cp(folder, copy, {
      recursive: true,
      filter: (path) =>
        path !== leaveOut &&
        !path.startsWith(`${leaveOut}/`) &&
        !(dirname(path) === walFolder && WAL_SEGMENT.test(basename(path))) &&
        path !== join(folder, 'backup_label'),
    });
    stop = await backupStop(db);
  } finally {
    // A failed copy ends the backup too: this connection could not start another one otherwise.
    if (!stop) await backupStop(db).catch(() => undefined);
  }
  const { to, label, tablespaceMap } = stop;
  const needed = (await readdir(walFolder)).filter((name) => WAL_SEGMENT.test(name) && name >= from && name <= to);
  if (!needed.includes(from) || !needed.includes(to)) return false;
  for (const name of needed) await copyFile(join(walFolder, name), join(copy, 'pg_wal', name));
  await writeFile(join(copy, 'backup_label'), label);
  if (tablespaceMap) await writeFile(join(copy, 'tablespace_map'), tablespaceMap);
  // pg_control last, as pg_basebackup does: the copy made during the backup may have caught it mid-write.
  await copyFile(join(folder, 'global', 'pg_control'), join(copy, 'global', 'pg_control'));
  return true;
}
