import { parentPort, workerData } from 'node:worker_threads';
import { readFirstSheet, type SheetData } from './importSheetReader';
import { SheetLimitError, type SheetLimit, type SheetLimits } from './xlsxPackage';

/** What the reading thread is given (workerData) and what it answers (one message). */
export interface SheetJob {
  bytes: Uint8Array;
  headerToField: Record<string, string>;
  limits: SheetLimits;
}
export type SheetAnswer =
  | { ok: true; data: SheetData }
  | { ok: false; limit: SheetLimit; vars: Record<string, string | number> }
  | { ok: false; limit: 'unreadable' };

/** The worker thread's body: read the sheet under the limits, answer once, end. */
async function main() {
  const job = workerData.job as SheetJob;
  const bytes = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
  let answer: SheetAnswer;
  try {
    answer = { ok: true, data: await readFirstSheet(bytes, job.headerToField, job.limits) };
  } catch (error) {
    answer = error instanceof SheetLimitError ? { ok: false, limit: error.limit, vars: error.vars } : { ok: false, limit: 'unreadable' };
  }
  parentPort!.postMessage(answer);
}

void main();
