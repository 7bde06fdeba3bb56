import type { PGlite } from '@electric-sql/pglite';
import { parentPort, workerData } from 'node:worker_threads';
import type { LiteReply, LiteRequest, LiteStart } from './pgliteThread';
import { liteSession, openLite } from './pgliteSession';

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
  lite = await openLite(start);
} catch (error) {
  post({ id: 0, error: plain(error) });
  throw error;
}

const answer = liteSession(lite, (channel, payload) => post({ id: -1, notify: channel, payload }));

port.on('message', (request: LiteRequest) => {
  answer(request).then(
    (result) => post({ id: request.id, result }),
    (error) => post({ id: request.id, error: plain(error) }),
  );
});
post({ id: 0, result: null });
