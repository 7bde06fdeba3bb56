import { useSyncExternalStore } from 'react';
import { getState, subscribe, type ClientState } from './clientState';

/** A piece of the client state, re-rendering when it changes. */
export function useClientState<T>(select: (state: ClientState) => T): T {
  return useSyncExternalStore(
    subscribe,
    () => select(getState()),
    () => select(getState()),
  );
}
