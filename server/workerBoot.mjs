// The entry of the server's worker threads (plain JavaScript, so that Node can start it as it is).
// A worker does not inherit tsx's loader from `tsx server/main.ts` or from vitest, so it registers
// tsx itself and then loads the TypeScript body named by workerData.entry (the workbook reader,
// server/modules/devices/importSheetWorker.ts; the embedded database, server/db/pgliteWorker.ts; a
// backup's copy, server/ops/backup/copyWorker.ts).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
