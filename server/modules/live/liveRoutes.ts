import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../../context';
import { languageOf } from '../../http/envelope';
import { tokenQuery } from '../../http/schemas';
import { translateDomain } from '../../../src/domain/messages';
import { LiveHub, type LiveHubOptions } from './liveHub';

/** The hub of each server by its database handle, for tests and benchmarks (heartbeat now, connection count). */
export const liveHubs = new WeakMap<object, LiveHub>();

/**
 * deviceModule/live/events: the console's Server-Sent Events stream (docs/api.md, live push).
 * EventSource sends no headers of ours, so the token comes as the query parameter every call
 * uses; the stream is a background call (it keeps no session alive). The response is written
 * on the raw socket (hijacked): no ETag, no compression, nothing buffered.
 */
export function liveRoutesWith(options: LiveHubOptions = {}) {
  return async function liveRoutes(app: FastifyInstance, { db, config }: ServerContext) {
    const hub = new LiveHub(db, config.sessionIdleMinutes, options);
    await hub.start();
    // preClose: open streams end before the server waits for its connections to finish.
    app.addHook('preClose', () => hub.close());
    liveHubs.set(db, hub);

    app.get(
      '/live/events',
      {
        config: { background: true },
        schema: {
          // Not in openapi.json: OpenAPI has no form for an endless event stream, and tools that call
          // every documented GET (fuzzers, tenant checks) would wait on it for ever. docs/api.md has it.
          hide: true,
          tags: ['monitoring'],
          summary: 'Server-Sent Events: alarms, device states and command states of the visible devices (resumable)',
          querystring: {
            type: 'object',
            properties: {
              ...tokenQuery,
              lastEventId: { type: 'string', maxLength: 4000, description: 'Resume after this event id (as the Last-Event-ID header)' },
            },
          },
          headers: { type: 'object', properties: { 'last-event-id': { type: 'string', maxLength: 4000 } } },
        },
      },
      async (request, reply) => {
        const query = request.query as { lastEventId?: string };
        const header = request.headers['last-event-id'];
        const resumeFrom = (typeof header === 'string' && header !== '' ? header : undefined) ?? (query.lastEventId || undefined);
        const lang = languageOf(request);
        reply.hijack();
        const res = reply.raw;
        res.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          // no-transform: proxies must neither compress nor hold back the stream; X-Accel-Buffering: nginx.
          'cache-control': 'no-cache, no-transform',
          connection: 'keep-alive',
          'x-accel-buffering': 'no',
        });
        // A console that lost the stream tries again after 3 s (EventSource's default is the browser's).
        res.write('retry: 3000\n\n');
        request.raw.socket.setNoDelay(true);
        request.raw.socket.setKeepAlive(true);
        try {
          await hub.open(res, request.user, request.token, resumeFrom, (error) => translateDomain(lang, error.msgKey, error.vars));
        } catch (error) {
          request.log.error(error);
          res.end();
        }
      },
    );
  };
}

export const liveRoutes = liveRoutesWith();
