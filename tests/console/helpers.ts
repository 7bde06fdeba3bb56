import { vi } from 'vitest';
import { configureClient, resetClient, type CatalogueAction, onCatalogueAction } from '../../src/api';
import { setConfig } from '../../src/config';

export interface Call {
  url: URL;
  method: string;
  body: unknown;
  contentType: string | null;
  credentials: RequestCredentials | undefined;
  /** The request headers as the client set them. */
  headers: Record<string, string>;
}

export type Reply = { code: number; msg?: string; data?: unknown } | { status: number; body?: unknown } | Error;

/** Routes the client's fetch to a handler keyed by path; records every call. */
export function mockApi(handler: (path: string, call: Call) => Reply | Promise<Reply>, hooks: Parameters<typeof configureClient>[0] = {}) {
  const calls: Call[] = [];
  setConfig({ baseURL: 'http://api.test', apiSegment: 'test', warnRefreshSeconds: 30, environment: 'development' });
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const headers = (init?.headers ?? {}) as Record<string, string>;
    const raw = init?.body;
    const body = typeof raw === 'string' ? (headers['Content-Type'] === 'application/json' ? JSON.parse(raw) : raw) : raw;
    const call: Call = {
      url,
      method: init?.method ?? 'GET',
      body,
      contentType: headers['Content-Type'] ?? null,
      credentials: init?.credentials,
      headers,
    };
    calls.push(call);
    const reply = await handler(url.pathname.replace('/cz/test', ''), call);
    if (reply instanceof Error) throw reply;
    if ('status' in reply) return new Response(reply.body === undefined ? 'oops' : JSON.stringify(reply.body), { status: reply.status });
    return new Response(JSON.stringify({ msg: '', data: null, ...reply }), {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  resetClient();
  configureClient({ fetch: fetchMock as unknown as typeof fetch, ...hooks });
  return { calls, fetchMock };
}

/** Collects the catalogue actions the client announces. */
export function recordActions() {
  const actions: CatalogueAction[] = [];
  const stop = onCatalogueAction((a) => actions.push(a));
  return { actions, stop };
}

export const ok = (data: unknown = null) => ({ code: 0, msg: 'success', data });
