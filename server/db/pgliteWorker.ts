import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { parentPort, workerData } from 'node:worker_threads';
import type { LiteReply, LiteRequest, LiteStart } from './pgliteThread';

/**
 * The embedded database's own thread (server/db/pgliteThread.ts): PGlite runs every statement on
 * the thread it lives on, so here it leaves the server's event loop free for HTTP, MQTT and the
 * live push while a statement runs. The server sends one request at a time (server/db/priority.ts);
 * a transaction stays open between its statements until the server ends it.
 */
const port = parentPort!;
const start = workerData.start as LiteStart;
const post = (reply: LiteReply) => port.postMessage(reply);

/** What an error carries to the server: its message and PostgreSQL's fields (code, constraint...). */
function plain(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields: Record<string, unknown> = { message: error.message, name: error.name };
  for (const [key, value] of Object.entries(error))
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  return fields;
}

let lite: PGlite;
try {
  // pg_trgm: the device list's search index (migration 011).
  lite =
    start.folder === undefined
      ? await PGlite.create({ extensions: { pg_trgm }, ...(start.loadDataDir ? { loadDataDir: start.loadDataDir } : {}) })
      : await PGlite.create(start.folder, { extensions: { pg_trgm } });
  // Its pages are in this process's memory (or the file cache): an index lookup costs little more
  // than a sequential read. With PostgreSQL's default of 4 the planner scanned all 10,000 latest
  // states for an enterprise's 200 (docs/architecture.md, "Soak").
  await lite.exec('SET random_page_cost = 1.1');
} catch (error) {
  post({ id: 0, error: plain(error) });
  throw error;
}

/** The open transaction, and how the server ends it. */
let open: { tx: Transaction; end(commit: boolean): void } | null = null;
let ending: Promise<unknown> | null = null;
/** The server listens once per channel (its handlers are its own). */
const unlisteners = new Map<string, () => Promise<void>>();
const ROLLBACK = Symbol('rollback');

async function answer(request: LiteRequest): Promise<unknown> {
  switch (request.op) {
    case 'query':
      return (await (open?.tx ?? lite).query(request.sql, request.params)).rows;
    case 'exec':
      await (open?.tx ?? lite).exec(request.sql);
      return null;
    case 'begin':
      // Answered once BEGIN has run; the transaction's callback then waits for 'end'.
      return new Promise<null>((begun, failed) => {
        ending = lite.transaction(
          (tx) =>
            new Promise<null>((commit, rollback) => {
              open = { tx, end: (yes) => (yes ? commit(null) : rollback(ROLLBACK)) };
              begun(null);
            }),
        );
        ending.catch((error) => error !== ROLLBACK && failed(error));
      });
    case 'end': {
      const ended = ending;
      const current = open;
      ending = null;
      open = null;
      current?.end(request.commit);
      try {
        await ended;
      } catch (error) {
        if (error !== ROLLBACK) throw error;
      }
      return null;
    }
    case 'listen': {
      const unlisten = await lite.listen(request.channel, (payload) => post({ id: -1, notify: request.channel, payload }));
      unlisteners.set(request.channel, unlisten);
      return null;
    }
    case 'unlisten':
      await unlisteners.get(request.channel)?.();
      unlisteners.delete(request.channel);
      return null;
    case 'dump':
      return lite.dumpDataDir('none');
    case 'close':
      await lite.close();
      return null;
  }
}

port.on('message', (request: LiteRequest) => {
  answer(request).then(
    (result) => post({ id: request.id, result }),
    (error) => post({ id: request.id, error: plain(error) }),
  );
});
post({ id: 0, result: null });
