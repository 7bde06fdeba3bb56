// The reading thread's entry (plain JavaScript, so that Node can start it as it is). A worker
// does not inherit tsx's loader from `tsx server/main.ts` or from vitest, so it registers tsx
// itself and then loads the TypeScript body named by workerData.entry (importSheetWorker.ts).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
