import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestServer } from './helpers';

/** Waits until `check` answers something truthy (the notify worker runs every 100 ms in these tests). */
export async function until<T>(check: () => T | Promise<T>, ms = 15_000): Promise<NonNullable<T>> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface Hit {
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  raw: string;
}

/**
 * A local HTTP receiver for webhooks and robots: it keeps every request it gets and answers with
 * `answer(hit)` (status and JSON body; 200 `{}` by default).
 */
export async function startReceiver(answer: (hit: Hit) => { status?: number; body?: unknown } = () => ({})) {
  const hits: Hit[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const hit = { path: url.pathname, query: url.searchParams, headers: req.headers, raw };
      hits.push(hit);
      const { status = 200, body = {} } = answer(hit);
      res.writeHead(status, { 'content-type': 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    hits,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Calls /supportModule/<route> as a named user: GET, or POST with a JSON payload, in a language. */
export const supportCaller =
  (server: () => TestServer, tokens: Record<string, string>) =>
  (who: string, route: string, payload?: object, lang: 'zh' | 'en' = 'en') =>
    server().call({
      method: payload ? 'POST' : 'GET',
      url: `${server().base}/supportModule/${route}`,
      token: tokens[who],
      lang,
      ...(payload ? { payload } : {}),
    });
