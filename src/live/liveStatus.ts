import { useSyncExternalStore } from 'react';

/**
 * The live stream as the rest of the console sees it:
 * - off: not logged in (or not started);
 * - connecting: opening or re-opening; views poll as usual meanwhile;
 * - live: events arrive (the first frame came through), so polls may slow down;
 * - fallback: the stream is not available (unsupported, refused, blocked by a proxy); the bell's poll (docs/requirements.md §7).
 */
export type LiveStatus = 'off' | 'connecting' | 'live' | 'fallback';

let status: LiveStatus = 'off';
const listeners = new Set<() => void>();

export function getLiveStatus(): LiveStatus {
  return status;
}

export function setLiveStatus(next: LiveStatus): void {
  if (next === status) return;
  status = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useLiveStatus(): LiveStatus {
  return useSyncExternalStore(subscribe, getLiveStatus, getLiveStatus);
}

/**
 * While events arrive, a poll is only a safety net: it runs every LIVE_POLL_SECONDS (or the
 * configured interval, if longer). Otherwise it runs at the configured interval (docs/requirements.md §7).
 */
export const LIVE_POLL_SECONDS = 120;

export function pollIntervalMs(configuredSeconds: number, live: LiveStatus): number {
  return (live === 'live' ? Math.max(configuredSeconds, LIVE_POLL_SECONDS) : configuredSeconds) * 1000;
}
