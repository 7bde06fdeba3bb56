import { rm } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ServerConfig } from '../../config';
import type { Db } from '../../db/connection';
import { backupFiles, backupFolder, createBackup, type BackupResult } from './backup';
import { nightlyDue, readBackupSettings, recordBackupRun } from './backupQueries';

export interface BackupService {
  /** Takes a backup now (one at a time: a second call while one runs waits for it and gets its result). */
  run(kind: 'nightly' | 'manual', to?: string): Promise<BackupResult>;
  /** The run in progress, if any: its kind and start. */
  running(): { kind: 'nightly' | 'manual'; startedAt: string } | null;
  /** The leader's check (every few minutes): takes the nightly backup when it is due, then keeps only the newest ones. */
  nightly(): Promise<void>;
  folder: string;
}

/**
 * Backups of this server's database: asked for (the console's "Back up now", npm run backup) or
 * nightly. Every finished run, good or failed, is recorded in backup_runs with its file, size and
 * reason; the record is written after the dump, so a backup never holds its own run.
 */
export function backupService(db: Db, config: ServerConfig): BackupService {
  const folder = backupFolder(config);
  let current: { kind: 'nightly' | 'manual'; startedAt: string; done: Promise<BackupResult> } | null = null;

  const run = (kind: 'nightly' | 'manual', to?: string): Promise<BackupResult> => {
    if (current) return current.done;
    const startedAt = new Date().toISOString();
    const done = (async () => {
      try {
        const result = await createBackup(db, config, { to });
        const missing = result.manifest.missingFirmware.length;
        await recordBackupRun(db, {
          kind,
          startedAt,
          ok: true,
          file: basename(result.file),
          sizeBytes: result.sizeBytes,
          tables: result.manifest.tables.length,
          message: missing ? `${missing} firmware file(s) missing from the firmware folder` : null,
        }).catch(() => undefined); // a database of an older version has no backup_runs: the backup stands
        return result;
      } catch (error) {
        await recordBackupRun(db, {
          kind,
          startedAt,
          ok: false,
          file: null,
          sizeBytes: null,
          tables: null,
          message: (error as Error).message.slice(0, 2000),
        }).catch(() => undefined);
        throw error;
      } finally {
        current = null;
      }
    })();
    current = { kind, startedAt, done };
    return done;
  };

  return {
    folder,
    run,
    running: () => (current ? { kind: current.kind, startedAt: current.startedAt } : null),
    async nightly() {
      if (current || !(await nightlyDue(db))) return;
      await run('nightly');
      const { keepCount } = await readBackupSettings(db);
      for (const old of (await backupFiles(folder)).slice(keepCount)) await rm(old, { force: true });
    },
  };
}
