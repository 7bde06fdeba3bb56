import { readlinkSync } from 'node:fs';
import { constants, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import * as tar from 'tar';
import { openLite } from '../../db/pgliteSession';
import type { Queryable } from '../../db/connection';
import { firmwareKeys, newestMigration, tableSums } from './backupQueries';
import type { CopyJob, CopyAnswer } from './copyThread';

/**
 * The thread that packs a backup's copy of the embedded database and sums its tables, or sums a
 * restored folder (server/ops/backup/copyThread.ts), at the lowest CPU priority on Linux: on a busy
 * server a backup takes longer, and the console and the ingest do not wait for it
 * (docs/architecture.md, "Backup and restore"). Elsewhere it runs at the process's priority.
 */
const job = workerData.job as CopyJob;

/** Linux: this thread alone (its own nice value) yields the CPU to the server's threads; elsewhere it keeps the process's priority. */
function yieldCpu() {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid)) setPriority(tid, constants.priority.PRIORITY_LOW);
  } catch {
    // Not Linux: no thread of its own to lower.
  }
}

async function run(): Promise<CopyAnswer> {
  yieldCpu();
  // tar's own gzip compresses on this thread (synchronously), not on the server's thread pool.
  if (job.pack) tar.c({ gzip: true, portable: true, sync: true, cwd: job.folder, file: job.pack.archive }, job.pack.entries);
  const lite = await openLite({ folder: job.folder });
  try {
    const db: Queryable = { query: async <T>(sql: string, params?: unknown[]) => (await lite.query<T>(sql, params)).rows };
    await db.query('BEGIN');
    // Read in one transaction: a backup's firmware list is the one its database names.
    const tables = await tableSums(db);
    const firmware = await firmwareKeys(db);
    const migration = await newestMigration(db);
    await db.query('COMMIT');
    return { ok: true, tables, firmware, migration };
  } finally {
    await lite.close();
  }
}

run().then(
  (answer) => parentPort!.postMessage(answer),
  (error: unknown) => parentPort!.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) }),
);
