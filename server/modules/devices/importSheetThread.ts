import { Worker } from 'node:worker_threads';
import { ErrorCode } from '../../../src/domain/errorCodes';
import {
  IMPORT_MAX_CELL_CHARS,
  IMPORT_MAX_COLUMNS,
  IMPORT_MAX_ENTRY_BYTES,
  IMPORT_MAX_ROWS,
  IMPORT_MAX_TEXT_CHARS,
  IMPORT_MAX_UNZIPPED_BYTES,
  IMPORT_MAX_ZIP_ENTRIES,
  IMPORT_READER_HEAP_MB,
  IMPORT_READERS_AT_ONCE,
  IMPORT_READERS_QUEUE,
  IMPORT_READ_TIMEOUT_MS,
} from '../../../src/domain/constants';
import { BizError } from '../../http/envelope';
import type { SheetData } from './importSheetReader';
import { checkZipDirectory, SheetLimitError, type SheetLimits } from './xlsxPackage';
import type { SheetAnswer, SheetJob } from './importSheetWorker';

/**
 * Checks the zip's central directory on the event loop (cheap), then runs importSheetReader in a
 * worker thread, so that reading a workbook never blocks the event
 * loop other users are served on: a heap limit (resourceLimits) and a time limit (the thread is
 * terminated) on top of the reader's own limits, and at most IMPORT_READERS_AT_ONCE threads at a
 * time (the next ones wait; past IMPORT_READERS_QUEUE waiting, -100 busy). A thread is started per
 * file and ends with it, so whatever a file cost is given back.
 */
export const IMPORT_LIMITS: SheetLimits = {
  maxZipEntries: IMPORT_MAX_ZIP_ENTRIES,
  maxEntryBytes: IMPORT_MAX_ENTRY_BYTES,
  maxUnzippedBytes: IMPORT_MAX_UNZIPPED_BYTES,
  maxRows: IMPORT_MAX_ROWS,
  maxColumns: IMPORT_MAX_COLUMNS,
  maxCellChars: IMPORT_MAX_CELL_CHARS,
  maxTextChars: IMPORT_MAX_TEXT_CHARS,
};

export interface ReaderOptions {
  limits?: SheetLimits;
  timeoutMs?: number;
  heapMb?: number;
}

type Outcome = SheetAnswer | { ok: false; limit: 'time' | 'memory' };

const BOOT = new URL('../../workerBoot.mjs', import.meta.url);
const ENTRY = new URL('./importSheetWorker.ts', import.meta.url).href;

let running = 0;
const waiting: (() => void)[] = [];

/** A reading slot; the returned function gives it to the next waiting file, or back. */
async function takeSlot(): Promise<() => void> {
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };
  if (running < IMPORT_READERS_AT_ONCE) {
    running += 1;
    return release;
  }
  if (waiting.length >= IMPORT_READERS_QUEUE) throw new BizError(ErrorCode.Busy, 'error.busy');
  await new Promise<void>((resolve) => waiting.push(resolve));
  return release;
}

function runWorker(job: SheetJob, timeoutMs: number, heapMb: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const worker = new Worker(BOOT, {
      workerData: { entry: ENTRY, job },
      // tsx is registered by the boot file; the parent's loader flags are not carried over.
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 16 },
    });
    let settled = false;
    const settle = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(outcome);
    };
    const timer = setTimeout(() => settle({ ok: false, limit: 'time' }), timeoutMs);
    worker.once('message', (answer: SheetAnswer) => settle(answer));
    worker.once('error', (error: Error & { code?: string }) =>
      settle({ ok: false, limit: error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : 'unreadable' }),
    );
    worker.once('exit', () => settle({ ok: false, limit: 'unreadable' }));
  });
}

const count = (n: number) => n.toLocaleString('en-US');
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** The refusal (code 8) naming the limit a file crossed; data says which limit, for programs. */
function refusal(outcome: Exclude<Outcome, { ok: true }>, o: Required<ReaderOptions>): BizError {
  const { limits } = o;
  const refuse = (key: string, data: Record<string, unknown>, vars: Record<string, string | number>) =>
    new BizError(ErrorCode.UploadRejected, key, { limit: outcome.limit, ...data }, vars);
  const vars = 'vars' in outcome ? outcome.vars : {};
  switch (outcome.limit) {
    case 'zipEntries':
      return refuse('error.uploadLimitZipEntries', { max: limits.maxZipEntries }, { max: count(limits.maxZipEntries) });
    case 'entryBytes':
      return refuse(
        'error.uploadLimitEntryBytes',
        { max: limits.maxEntryBytes, part: vars.name },
        { mb: mb(limits.maxEntryBytes), name: String(vars.name ?? '') },
      );
    case 'unzippedBytes':
      return refuse('error.uploadLimitUnzipped', { max: limits.maxUnzippedBytes }, { mb: mb(limits.maxUnzippedBytes) });
    case 'declaredSize':
      return refuse('error.uploadLimitDeclared', { part: vars.name }, { name: String(vars.name ?? '') });
    case 'rows':
      return refuse('error.uploadLimitRows', { max: limits.maxRows }, { max: count(limits.maxRows) });
    case 'columns':
      return refuse(
        'error.uploadLimitColumns',
        { max: limits.maxColumns, cell: vars.cell },
        { max: count(limits.maxColumns), cell: String(vars.cell ?? '') },
      );
    case 'cellChars':
      return refuse(
        'error.uploadLimitCell',
        { max: limits.maxCellChars, cell: vars.cell },
        { max: count(limits.maxCellChars), cell: String(vars.cell ?? '') },
      );
    case 'textChars':
      return refuse('error.uploadLimitText', { max: limits.maxTextChars }, { max: count(limits.maxTextChars) });
    case 'time':
      return refuse('error.uploadLimitTime', { max: o.timeoutMs }, { seconds: o.timeoutMs / 1000 });
    case 'memory':
      return refuse('error.uploadLimitMemory', { max: o.heapMb }, { mb: o.heapMb });
    default:
      return new BizError(ErrorCode.UploadRejected, 'error.importUnreadable');
  }
}

/**
 * The first sheet of an .xlsx, read off the event loop under the import limits; a file that
 * crosses one is refused with code 8 and a message naming the limit.
 */
export async function readSheetOffThread(
  bytes: Uint8Array,
  headerToField: Record<string, string>,
  options: ReaderOptions = {},
): Promise<SheetData> {
  const o: Required<ReaderOptions> = {
    limits: IMPORT_LIMITS,
    timeoutMs: IMPORT_READ_TIMEOUT_MS,
    heapMb: IMPORT_READER_HEAP_MB,
    ...options,
  };
  // The central directory first, here: a file whose declared sizes cross a limit needs no thread.
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  await checkZipDirectory(buffer, o.limits).catch((error: unknown) => {
    throw refusal(
      error instanceof SheetLimitError ? { ok: false, limit: error.limit, vars: error.vars } : { ok: false, limit: 'unreadable' },
      o,
    );
  });
  const release = await takeSlot();
  let outcome: Outcome;
  try {
    outcome = await runWorker({ bytes, headerToField, limits: o.limits }, o.timeoutMs, o.heapMb);
  } finally {
    release();
  }
  if (outcome.ok) return outcome.data;
  throw refusal(outcome, o);
}
