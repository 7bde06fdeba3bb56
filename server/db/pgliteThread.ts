import { Worker } from 'node:worker_threads';
import { liteSession, openLite, type LiteRequest, type LiteStart } from './pgliteSession';

export type { LiteRequest, LiteStart } from './pgliteSession';

/** An answer to request `id`; id 0 is the thread's start; id -1 a notification on channel `notify`. */
export type LiteReply =
  | { id: number; result: unknown; error?: undefined }
  | { id: number; error: Record<string, unknown>; result?: undefined }
  | { id: -1; notify: string; payload: string };

type Distribute<T> = T extends unknown ? Omit<T, 'id'> : never;

/** The database on its thread, as the server calls it: one request at a time (server/db/priority.ts). */
export interface LiteThread {
  request<T = unknown>(request: Distribute<LiteRequest>): Promise<T>;
  /** Notifications on the channels listened to, each before the answer of the statement that caused it. */
  onNotify(handler: (channel: string, payload: string) => void): void;
  readonly closed: boolean;
  terminate(): Promise<void>;
}

const BOOT = new URL('../workerBoot.mjs', import.meta.url);
const ENTRY = new URL('./pgliteWorker.ts', import.meta.url).href;

/** An error from the thread, as PostgreSQL's own: its message and fields (code, constraint...). */
function revive(fields: Record<string, unknown>): Error {
  const error = new Error(String(fields.message));
  return Object.assign(error, fields);
}

/**
 * Starts PGlite on a thread of its own (docs/architecture.md, "Soak": its statements ran on the
 * event loop and held up every HTTP call meanwhile). The thread holds the process open only while
 * a request waits for its answer, as an in-process database would.
 */
export function startLiteThread(start: LiteStart): Promise<LiteThread> {
  const worker = new Worker(BOOT, { workerData: { entry: ENTRY, start }, execArgv: [] });
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 1;
  let closed = false;
  let failure: Error | null = null;
  let notify: (channel: string, payload: string) => void = () => undefined;
  const settleAll = (error: Error) => {
    failure ??= error;
    for (const [, waiting] of pending) waiting.reject(failure);
    pending.clear();
  };
  return new Promise((ready, failed) => {
    pending.set(0, {
      resolve: () => {
        worker.unref();
        ready(thread);
      },
      reject: failed,
    });
    worker.on('message', (reply: LiteReply) => {
      if ('notify' in reply) return notify(reply.notify, reply.payload);
      const waiting = pending.get(reply.id);
      pending.delete(reply.id);
      if (!pending.size) worker.unref();
      if (reply.error) waiting?.reject(revive(reply.error));
      else waiting?.resolve(reply.result);
    });
    worker.on('error', settleAll);
    worker.on('exit', (code) => {
      closed = true;
      settleAll(new Error(`The embedded database's thread ended (exit code ${code})`));
    });
    const thread: LiteThread = {
      request<T>(request: Distribute<LiteRequest>) {
        if (failure) return Promise.reject(failure);
        const id = nextId++;
        worker.ref();
        return new Promise<T>((resolve, reject) => {
          pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
          try {
            worker.postMessage({ ...request, id });
          } catch (error) {
            // A parameter that cannot be copied to the thread: this request fails, and waits for nothing.
            pending.delete(id);
            if (!pending.size) worker.unref();
            reject(error as Error);
          }
        });
      },
      onNotify(handler) {
        notify = handler;
      },
      get closed() {
        return closed;
      },
      async terminate() {
        if (closed) return;
        await thread.request({ op: 'close' }).catch(() => undefined);
        closed = true;
        await worker.terminate();
      },
    };
  });
}

/**
 * PGlite in the server's own thread, behind the same requests: a database in memory (the tests'
 * servers, started by the dozen) is not worth a thread's start-up (a full test run took twice as
 * long with one thread each).
 */
export async function startLiteLocal(start: LiteStart): Promise<LiteThread> {
  const lite = await openLite(start);
  let notify: (channel: string, payload: string) => void = () => undefined;
  const answer = liteSession(lite, (channel, payload) => notify(channel, payload));
  return {
    request: <T>(request: Distribute<LiteRequest>) => answer({ ...request, id: 0 } as LiteRequest) as Promise<T>,
    onNotify(handler) {
      notify = handler;
    },
    get closed() {
      return lite.closed;
    },
    async terminate() {
      if (!lite.closed) await lite.close();
    },
  };
}
