import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { callKey } from '../../src/data/dataHooks';
import { BELL_KEY } from '../../src/data/bellKey';
import { ALL_LIVE_KEYS, COMMANDS_RESOURCE, createInvalidator, keysFor } from '../../src/live/invalidations';
import { openLiveConnection, type EventSourceLike } from '../../src/live/liveConnection';
import { LIVE_POLL_SECONDS, pollIntervalMs, type LiveStatus } from '../../src/live/liveStatus';

/** An EventSource the test drives: frames, errors, and the browser's readyState. */
class FakeSource implements EventSourceLike {
  readyState = 0;
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  private listeners = new Map<string, ((event: MessageEvent) => void)[]>();
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (event: MessageEvent) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.closed = true;
    this.readyState = 2;
  }
  emit(type: string, data: unknown, lastEventId = '') {
    this.readyState = 1;
    for (const l of this.listeners.get(type) ?? []) l(new MessageEvent(type, { data: JSON.stringify(data), lastEventId }));
  }
  fail(readyState: number) {
    this.readyState = readyState;
    this.onerror?.(new Event('error'));
  }
}

/** Timers the test moves by hand. */
function manualTimers() {
  let now = 0;
  let seq = 0;
  const due = new Map<number, { at: number; fn: () => void }>();
  return {
    set: (fn: () => void, ms: number) => {
      due.set(++seq, { at: now + ms, fn });
      return seq;
    },
    clear: (handle: unknown) => {
      due.delete(handle as number);
    },
    now: () => now,
    advance(ms: number) {
      now += ms;
      for (const [id, t] of [...due].sort((a, b) => a[1].at - b[1].at))
        if (t.at <= now) {
          due.delete(id);
          t.fn();
        }
    },
    pending: () => due.size,
  };
}

function connection(options: { createEventSource?: null } = {}) {
  const sources: FakeSource[] = [];
  const kinds: string[][] = [];
  const statuses: LiveStatus[] = [];
  const ends: [number, string][] = [];
  const timers = manualTimers();
  const live = openLiveConnection({
    url: (lastEventId) => `/live?token=t${lastEventId ? `&lastEventId=${lastEventId}` : ''}`,
    createEventSource:
      options.createEventSource === null
        ? null
        : (url) => {
            const s = new FakeSource(url);
            sources.push(s);
            return s;
          },
    onKinds: (k) => kinds.push([...k].sort()),
    onStatus: (s) => statuses.push(s),
    onEnd: (code, msg) => ends.push([code, msg]),
    retryMs: 60_000,
    throttleMs: 1000,
    timers,
  });
  return { live, sources, kinds, statuses, ends, timers, status: () => statuses.at(-1) };
}

describe('live push in the console: which views an event refreshes', () => {
  const prefixes = (kinds: string[]) => keysFor(kinds).map((k) => k.key);

  it('maps alarms and states to the bell, the monitor, the dashboard and the device list, commands to the commands resource', () => {
    const alarm = prefixes(['alarm']);
    expect(alarm).toContainEqual(BELL_KEY);
    expect(alarm).toContainEqual(callKey('monitoring'));
    expect(alarm).toContainEqual(['system/deviceManagement']);
    expect(prefixes(['state'])).toEqual(alarm);
    // The status monitor, alarm list and dashboard panels lie under the monitoring prefix, as the bell does.
    expect(BELL_KEY.slice(0, 2)).toEqual(callKey('monitoring'));
    expect(prefixes(['command'])).toContainEqual([COMMANDS_RESOURCE]);
    expect(prefixes(['command'])).not.toContainEqual(callKey('monitoring'));
    expect(keysFor(['reset'])).toEqual(ALL_LIVE_KEYS);
    expect(prefixes(['alarm', 'state'])).toHaveLength(alarm.length);
    expect(prefixes(['somethingNew'])).toEqual([]);
  });

  it('invalidates exactly the cached queries under those prefixes; the bell at once, bigger views at most every few seconds', async () => {
    const client = new QueryClient();
    const keys = {
      bell: BELL_KEY,
      alarms: callKey('monitoring', 'alarms', [{ pageSize: 20 }]),
      counts: callKey('monitoring', 'statusCounts'),
      devices: ['system/deviceManagement', 'getList', { page: 1 }],
      track: callKey('history', 'track', [{ deviceId: 1 }]),
      commands: [COMMANDS_RESOURCE, 'getList', {}],
    };
    const fresh = () => {
      for (const key of Object.values(keys)) client.setQueryData(key, { ok: true });
    };
    const stale = (key: readonly unknown[]) => client.getQueryState(key)!.isInvalidated;
    const timers = manualTimers();
    const invalidator = createInvalidator(client, timers);
    fresh();
    invalidator.invalidate(['alarm']);
    expect([keys.bell, keys.alarms, keys.counts, keys.devices].map(stale)).toEqual([true, true, true, true]);
    expect(stale(keys.track)).toBe(false);
    expect(stale(keys.commands)).toBe(false);
    // A second event right after: the bell again within a quarter second, the rest once their interval passed.
    fresh();
    invalidator.invalidate(['state']);
    invalidator.invalidate(['alarm']);
    expect([keys.bell, keys.counts, keys.devices].map(stale)).toEqual([false, false, false]);
    timers.advance(250);
    expect([keys.bell, keys.counts, keys.devices].map(stale)).toEqual([true, false, false]);
    timers.advance(1750);
    expect([keys.counts, keys.devices].map(stale)).toEqual([true, false]);
    timers.advance(3000);
    expect(stale(keys.devices)).toBe(true);
    invalidator.invalidate(['command']);
    expect(stale(keys.commands)).toBe(true);
    invalidator.close();
  });
});

describe('live push in the console: the stream and the fallback to polling', () => {
  it('is live after the first frame; the first event refreshes at once, a burst once more within the throttle', () => {
    const c = connection();
    expect(c.status()).toBe('connecting');
    c.sources[0]!.emit('hello', {}, '10');
    expect(c.status()).toBe('live');
    c.sources[0]!.emit('alarm', { deviceId: 1 }, '11');
    expect(c.kinds).toEqual([['alarm']]);
    c.sources[0]!.emit('state', { deviceId: 1 }, '12');
    c.sources[0]!.emit('alarm', { deviceId: 2 }, '13');
    c.sources[0]!.emit('command', { deviceId: 2 }, '14');
    expect(c.kinds).toHaveLength(1);
    c.timers.advance(1000);
    expect(c.kinds).toEqual([['alarm'], ['alarm', 'command', 'state']]);
    c.live.close();
    expect(c.sources[0]!.closed).toBe(true);
    expect(c.status()).toBe('off');
  });

  it('polls while EventSource reconnects by itself, and again after it gives up; a new stream resumes from the last id', () => {
    const c = connection();
    c.sources[0]!.emit('hello', {}, '10');
    c.sources[0]!.emit('state', { deviceId: 1 }, '11');
    c.sources[0]!.fail(0);
    expect(c.status()).toBe('connecting');
    c.sources[0]!.emit('hello', {}, '11');
    expect(c.status()).toBe('live');
    // Refused (a proxy, an HTTP error): EventSource closes for good; the console polls.
    c.sources[0]!.fail(2);
    expect(c.status()).toBe('fallback');
    expect(c.sources).toHaveLength(1);
    c.timers.advance(60_000);
    expect(c.sources).toHaveLength(2);
    expect(c.sources[1]!.url).toBe('/live?token=t&lastEventId=11');
    c.sources[1]!.emit('reset', {}, '40');
    expect(c.status()).toBe('live');
    c.timers.advance(1000);
    expect(c.kinds.at(-1)).toEqual(['reset']);
    c.live.close();
  });

  it('without EventSource the console only polls', () => {
    const c = connection({ createEventSource: null });
    expect(c.status()).toBe('fallback');
    expect(c.timers.pending()).toBe(0);
  });

  it('an ended session is announced with its code and the stream is not opened again', () => {
    const c = connection();
    c.sources[0]!.emit('hello', {}, '10');
    c.sources[0]!.emit('end', { code: -24, msg: 'logged in elsewhere' });
    expect(c.ends).toEqual([[-24, 'logged in elsewhere']]);
    expect(c.sources[0]!.closed).toBe(true);
    c.timers.advance(120_000);
    expect(c.sources).toHaveLength(1);
  });

  it('polls at the configured interval unless the stream is live, then slows to a safety net', () => {
    for (const status of ['off', 'connecting', 'fallback'] as const) expect(pollIntervalMs(15, status)).toBe(15_000);
    expect(pollIntervalMs(15, 'live')).toBe(LIVE_POLL_SECONDS * 1000);
    expect(pollIntervalMs(600, 'live')).toBe(600_000);
  });
});
