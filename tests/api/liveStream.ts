import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestServer } from './helpers';

export interface SseEvent {
  id: string | null;
  event: string;
  data: any;
}

/**
 * A console's end of the live stream over real HTTP (app.inject cannot stream): frames parsed as
 * EventSource parses them, comments counted, every chunk's arrival kept.
 */
export interface LiveStream {
  events: SseEvent[];
  headers: http.IncomingHttpHeaders;
  status: number;
  comments: number;
  bytes: number;
  ended: boolean;
  /** Resolves with the first event (from `from` on) that matches, or rejects after `ms`. */
  next(match: (e: SseEvent) => boolean, ms?: number, from?: number): Promise<SseEvent>;
  /** The events of a kind seen so far. */
  of(kind: string): SseEvent[];
  /** The id of the last event received (what EventSource would send as Last-Event-ID). */
  lastId(): string | null;
  close(): void;
  closed: Promise<void>;
}

export async function listening(s: TestServer): Promise<string> {
  if (!s.app.server.listening) await s.app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(s.app.server.address() as AddressInfo).port}`;
}

export async function openStream(
  s: TestServer,
  token: string,
  { lastEventId, query = '', headers = {} }: { lastEventId?: string; query?: string; headers?: Record<string, string> } = {},
): Promise<LiveStream> {
  const origin = await listening(s);
  const url = `${origin}${s.base}/deviceModule/live/events?token=${encodeURIComponent(token)}${query}`;
  return new Promise((resolve, reject) => {
    const req = http.get(
      url,
      { headers: { accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}), ...headers } },
      (res) => {
        let buffer = '';
        let endResolve!: () => void;
        const waiters = new Set<() => void>();
        const stream: LiveStream = {
          events: [],
          headers: res.headers,
          status: res.statusCode ?? 0,
          comments: 0,
          bytes: 0,
          ended: false,
          next(match, ms = 5000, from = 0) {
            return new Promise((ok, fail) => {
              const check = () => {
                const found = stream.events.slice(from).find(match);
                if (found) {
                  waiters.delete(check);
                  clearTimeout(timer);
                  ok(found);
                  return true;
                }
                return false;
              };
              const timer = setTimeout(() => {
                waiters.delete(check);
                fail(new Error(`no matching event within ${ms} ms; got ${JSON.stringify(stream.events)}`));
              }, ms);
              if (!check()) waiters.add(check);
            });
          },
          of: (kind) => stream.events.filter((e) => e.event === kind),
          lastId: () => [...stream.events].reverse().find((e) => e.id !== null)?.id ?? null,
          close: () => req.destroy(),
          closed: new Promise<void>((r) => {
            endResolve = r;
          }),
        };
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          stream.bytes += Buffer.byteLength(chunk);
          buffer += chunk;
          let at: number;
          while ((at = buffer.indexOf('\n\n')) >= 0) {
            const frame = buffer.slice(0, at);
            buffer = buffer.slice(at + 2);
            const e: SseEvent = { id: null, event: 'message', data: null };
            let data: string | null = null;
            let comment = false;
            for (const line of frame.split('\n')) {
              if (line.startsWith(':')) comment = true;
              else if (line.startsWith('id: ')) e.id = line.slice(4);
              else if (line.startsWith('event: ')) e.event = line.slice(7);
              else if (line.startsWith('data: ')) data = line.slice(6);
            }
            if (data === null) {
              if (comment) stream.comments++;
              continue;
            }
            e.data = JSON.parse(data);
            stream.events.push(e);
          }
          for (const w of [...waiters]) w();
        });
        const done = () => {
          stream.ended = true;
          endResolve();
        };
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
        resolve(stream);
      },
    );
    req.on('error', reject);
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
