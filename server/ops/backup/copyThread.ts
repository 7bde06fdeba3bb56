import { Worker } from 'node:worker_threads';
import type { TableSum } from './backupQueries';

const BOOT = new URL('../../workerBoot.mjs', import.meta.url);
const ENTRY = new URL('./copyWorker.ts', import.meta.url).href;

/** A backup's copy of the embedded database's folder, its files, and the tarball to pack them into. */
export interface CopyJob {
  copy: string;
  entries: string[];
  archive: string;
}
export type CopyAnswer = { ok: true; tables: TableSum[] } | { ok: false; message: string };

/**
 * Packs the copy into a gzipped tarball and sums its tables, on a thread of its own at the lowest
 * CPU priority (server/ops/backup/copyWorker.ts): the server's own threads go first.
 */
export function packAndSumCopy(job: CopyJob): Promise<TableSum[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(BOOT, { workerData: { entry: ENTRY, job }, execArgv: [] });
    worker.once('message', (answer: CopyAnswer) => {
      void worker.terminate();
      if (answer.ok) resolve(answer.tables);
      else reject(new Error(answer.message));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`The backup's copy thread stopped (exit code ${code})`)));
  });
}
