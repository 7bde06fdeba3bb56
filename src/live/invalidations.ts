import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { callKey } from '../data/dataHooks';
import { BELL_KEY } from '../data/bellKey';
import { COMMANDS_RESOURCE, DEVICES_RESOURCE } from '../data/resourceNames';

/**
 * The commands resource (docs/api.md, "command"): its lists refetch on every 'command' event, and the
 * calls of the commands module too (the vessel page's Commands section).
 */
export { COMMANDS_RESOURCE };

/** A query key prefix an event makes stale, and how often at most it is refetched for events. */
export interface LiveKey {
  key: QueryKey;
  minIntervalMs: number;
}

// The bell turns on within a second; the bigger answers (the status monitor, the fleet map, the
// device list) follow a burst of events at most every few seconds: bytes are dear at sea.
const BELL: LiveKey = { key: BELL_KEY, minIntervalMs: 250 };
const MONITORING: LiveKey = { key: callKey('monitoring'), minIntervalMs: 2000 };
const VESSEL: LiveKey = { key: callKey('vessel'), minIntervalMs: 5000 };
const DEVICES: LiveKey = { key: [DEVICES_RESOURCE], minIntervalMs: 5000 };
const COMMANDS: LiveKey = { key: [COMMANDS_RESOURCE], minIntervalMs: 1000 };
const COMMAND_CALLS: LiveKey = { key: callKey('commands'), minIntervalMs: 1000 };

/**
 * What each live event makes stale, in one place (docs/architecture.md, live push). Keys are
 * prefixes: callKey('monitoring') covers the bell, the status monitor, the alarm list, the
 * dashboard panels and the fleet map; [resource] covers a resource's lists and records
 * (react-admin keys them by resource name).
 */
export const LIVE_INVALIDATIONS: Readonly<Record<string, readonly LiveKey[]>> = {
  alarm: [BELL, MONITORING, VESSEL, DEVICES],
  state: [BELL, MONITORING, VESSEL, DEVICES],
  command: [COMMANDS, COMMAND_CALLS],
};

/** Everything a live event could have changed: after 'reset' (too much missed). */
export const ALL_LIVE_KEYS: readonly LiveKey[] = uniqueKeys(Object.values(LIVE_INVALIDATIONS).flat());

/** The distinct keys the given event kinds make stale (unknown kinds: none). */
export function keysFor(kinds: Iterable<string>): LiveKey[] {
  return uniqueKeys([...kinds].flatMap((kind) => (kind === 'reset' ? ALL_LIVE_KEYS : (LIVE_INVALIDATIONS[kind] ?? []))));
}

function uniqueKeys(keys: readonly LiveKey[]): LiveKey[] {
  const seen = new Map<string, LiveKey>();
  for (const key of keys) seen.set(JSON.stringify(key.key), key);
  return [...seen.values()];
}

export interface Invalidator {
  /** Marks the views of these event kinds stale: each key now, or when its interval has passed. */
  invalidate(kinds: Iterable<string>): void;
  close(): void;
}

/**
 * Invalidates by key prefix (active queries refetch, inactive ones when next shown): a key whose
 * last refetch for events was less than its minIntervalMs ago is refetched once when it has passed.
 */
export function createInvalidator(
  queryClient: QueryClient,
  timers: { set: (fn: () => void, ms: number) => unknown; clear: (handle: unknown) => void; now: () => number } = {
    set: (fn, ms) => setTimeout(fn, ms),
    clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    now: () => Date.now(),
  },
): Invalidator {
  const lastAt = new Map<string, number>();
  const waiting = new Map<string, unknown>();
  const run = (id: string, key: QueryKey) => {
    waiting.delete(id);
    lastAt.set(id, timers.now());
    void queryClient.invalidateQueries({ queryKey: key });
  };
  return {
    invalidate(kinds) {
      for (const { key, minIntervalMs } of keysFor(kinds)) {
        const id = JSON.stringify(key);
        if (waiting.has(id)) continue;
        const wait = (lastAt.get(id) ?? -Infinity) + minIntervalMs - timers.now();
        if (wait <= 0) run(id, key);
        else
          waiting.set(
            id,
            timers.set(() => run(id, key), wait),
          );
      }
    },
    close() {
      for (const handle of waiting.values()) timers.clear(handle);
      waiting.clear();
    },
  };
}
