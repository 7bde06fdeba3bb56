import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { preparedStatements } from './pgliteStatements';

/** How the embedded database's thread starts (server/db/pgliteWorker.ts): a folder, else in memory (from a dump). */
export interface LiteStart {
  folder?: string;
  loadDataDir?: Blob;
}

export type LiteRequest = { id: number } & (
  | { op: 'query'; sql: string; params: unknown[] }
  | { op: 'exec'; sql: string }
  | { op: 'begin' }
  | { op: 'end'; commit: boolean }
  | { op: 'listen'; channel: string }
  | { op: 'unlisten'; channel: string }
  | { op: 'dump' }
  | { op: 'close' }
);

/** PGlite in a folder, else in memory (from a dump), set up as the server uses it. */
export async function openLite(start: LiteStart): Promise<PGlite> {
  // pg_trgm: the device list's search index (migration 011).
  const lite =
    start.folder === undefined
      ? await PGlite.create({ extensions: { pg_trgm }, ...(start.loadDataDir ? { loadDataDir: start.loadDataDir } : {}) })
      : await PGlite.create(start.folder, { extensions: { pg_trgm } });
  // Its pages are in this process's memory (or the file cache): an index lookup costs little more
  // than a sequential read. With PostgreSQL's default of 4 the planner scanned all 10,000 latest
  // states for an enterprise's 200 (docs/architecture.md, "Soak").
  await lite.exec('SET random_page_cost = 1.1');
  return lite;
}

/**
 * Answers the server's requests on one PGlite (server/db/pgliteThread.ts), on its own thread or in
 * the server's: a transaction stays open between its statements until the server ends it.
 */
export function liteSession(lite: PGlite, notify: (channel: string, payload: string) => void) {
  /** The open transaction, and how the server ends it. */
  let open: { tx: Transaction; end(commit: boolean): void } | null = null;
  let ending: Promise<unknown> | null = null;
  /** The server listens once per channel (its handlers are its own). */
  const unlisteners = new Map<string, () => Promise<void>>();
  const ROLLBACK = Symbol('rollback');
  // Every statement is prepared once (server/db/pgliteStatements.ts); it runs inside the open transaction if any.
  const query = preparedStatements(lite);

  return async function answer(request: LiteRequest): Promise<unknown> {
    switch (request.op) {
      case 'query':
        return query(request.sql, request.params, open !== null);
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
        const unlisten = await lite.listen(request.channel, (payload) => notify(request.channel, payload));
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
  };
}
