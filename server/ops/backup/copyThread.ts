import { Worker } from 'node:worker_threads';
import type { TableSum } from './backupQueries';

const BOOT = new URL('../../workerBoot.mjs', import.meta.url);
const ENTRY = new URL('./copyWorker.ts', import.meta.url).href;

/** An embedded database's folder to sum (a backup's copy, or a restored folder), and for a backup the tarball to pack its files into. */
export interface CopyJob {
  folder: string;
  pack?: { entries: string[]; archive: string };
}
/** What the folder holds: every table's sums, and the firmware files and newest migration its rows name. */
export interface FolderFigures {
  tables: TableSum[];
  firmware: { key: string; sha256: string }[];
  migration: string;
}
export type CopyAnswer = ({ ok: true } & FolderFigures) | { ok: false; message: string };

/**
 * Every table's count and checksum in an embedded database's folder, and the firmware files and
 * newest migration its rows name, read in one transaction once it is opened (a backup's copy has its
 * WAL replayed then), after packing its files into a gzipped tarball when asked (a backup's copy),
 * on a thread of its own at the lowest CPU priority on Linux (server/ops/backup/copyWorker.ts): a
 * running server's own threads go first.
 */
export function folderSums(job: CopyJob): Promise<FolderFigures> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(BOOT, { workerData: { entry: ENTRY, job }, execArgv: [] });
    worker.once('message', (answer: CopyAnswer) => {
      void worker.terminate();
      if (!answer.ok) return reject(new Error(answer.message));
      const { ok: _ok, ...figures } = answer;
      resolve(figures);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`The backup's copy thread stopped (exit code ${code})`)));
  });
}
