import type { LiveStatus } from './liveStatus';

/** The part of EventSource the console uses (tests pass a fake). */
export interface EventSourceLike {
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onerror: ((event: Event) => void) | null;
  addEventListener(type: string, listener: (event: MessageEvent) => void): void;
  close(): void;
}
export type EventSourceFactory = (url: string) => EventSourceLike;

/** The event kinds the server sends (docs/api.md, live push). */
export const DATA_EVENTS = ['alarm', 'state', 'command'] as const;
const CLOSED = 2;

export interface LiveConnectionOptions {
  /** The stream's URL (token and language as query parameters); lastEventId when resuming. */
  url: (lastEventId: string | null) => string;
  /** null: EventSource is not available here (the console polls). */
  createEventSource: EventSourceFactory | null;
  /** Called with the kinds of events that arrived (and 'reset' when the console must refetch all). */
  onKinds: (kinds: Set<string>) => void;
  onStatus: (status: LiveStatus) => void;
  /** The session ended (logout elsewhere -24, idle -26...): the code and message a call would get. */
  onEnd: (code: number, msg: string) => void;
  /** After the stream failed for good, it is tried again after this long (the console polls meanwhile). */
  retryMs?: number;
  /** Events within this long of a flush are gathered into the next one (0: each at once; the invalidator throttles per view). */
  throttleMs?: number;
  timers?: { set: (fn: () => void, ms: number) => unknown; clear: (handle: unknown) => void; now: () => number };
}

export interface LiveConnection {
  close(): void;
}

/**
 * One EventSource per logged-in console. Events become invalidations of the views that show
 * them (onKinds; optionally gathered: the first of a quiet spell at once, the rest of a burst at
 * most once per throttleMs).
 * The stream counts as live only once a frame came through (a proxy that holds the stream back
 * leaves the console polling). When EventSource gives up (refused, wrong answer) the console
 * polls and opens a new stream after retryMs, resuming from the last event id it saw.
 */
export function openLiveConnection(options: LiveConnectionOptions): LiveConnection {
  const retryMs = options.retryMs ?? 60_000;
  const throttleMs = options.throttleMs ?? 0;
  const timers = options.timers ?? {
    set: (fn: () => void, ms: number) => setTimeout(fn, ms),
    clear: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    now: () => Date.now(),
  };
  let source: EventSourceLike | null = null;
  let lastEventId: string | null = null;
  let retry: unknown = null;
  let flushTimer: unknown = null;
  let lastFlush = -Infinity;
  let pending = new Set<string>();
  let closed = false;
  /** Whether a stream was ever live: one opened again without a cursor must refetch everything. */
  let wasLive = false;

  const flush = () => {
    flushTimer = null;
    if (!pending.size || closed) return;
    lastFlush = timers.now();
    const kinds = pending;
    pending = new Set();
    options.onKinds(kinds);
  };
  const queue = (kind: string) => {
    pending.add(kind);
    if (flushTimer !== null) return;
    const wait = Math.max(0, lastFlush + throttleMs - timers.now());
    if (wait === 0) flush();
    else flushTimer = timers.set(flush, wait);
  };

  const fallback = () => {
    source?.close();
    source = null;
    options.onStatus('fallback');
    if (!closed && options.createEventSource)
      retry = timers.set(() => {
        retry = null;
        connect();
      }, retryMs);
  };

  function connect() {
    if (closed) return;
    if (!options.createEventSource) return fallback();
    let es: EventSourceLike;
    try {
      es = options.createEventSource(options.url(lastEventId));
    } catch {
      return fallback();
    }
    source = es;
    options.onStatus('connecting');
    const frame = (kind: string | null) => (event: MessageEvent) => {
      if (source !== es) return;
      if (event.lastEventId) lastEventId = event.lastEventId;
      options.onStatus('live');
      wasLive = true;
      if (kind) queue(kind);
    };
    // The first frame: hello, or the replay of what was missed, or reset.
    es.addEventListener('hello', frame(null));
    es.addEventListener('reset', frame('reset'));
    for (const kind of DATA_EVENTS) es.addEventListener(kind, frame(kind));
    es.addEventListener('end', (event: MessageEvent) => {
      if (source !== es) return;
      closed = true;
      es.close();
      source = null;
      options.onStatus('fallback');
      let body: { code?: unknown; msg?: unknown } = {};
      try {
        body = JSON.parse(String(event.data));
      } catch {
        /* an end without a body: nothing to announce */
      }
      if (typeof body.code === 'number') options.onEnd(body.code, typeof body.msg === 'string' ? body.msg : '');
    });
    es.onerror = () => {
      if (source !== es) return;
      // CONNECTING: EventSource tries again by itself (sending Last-Event-ID); poll meanwhile.
      if (es.readyState === CLOSED) fallback();
      else options.onStatus('connecting');
    };
    if (wasLive && !lastEventId) queue('reset');
  }

  connect();
  return {
    close() {
      closed = true;
      if (retry !== null) timers.clear(retry);
      if (flushTimer !== null) timers.clear(flushTimer);
      source?.close();
      source = null;
      options.onStatus('off');
    },
  };
}
