import { useEffect } from 'react';
import { useCallQuery } from '../data/dataHooks';
import { applyConsoleSettings } from '../state/preferences';

/**
 * Reads the console settings the server keeps for everyone (bell interval, default size) through
 * the dataProvider and hands each answer to the preferences store, which the bell and the monitor
 * read: the first read, and every refetch after a save invalidates the support calls. A failed
 * read (quiet) leaves the built-in defaults.
 */
export function useConsoleSettings(): void {
  const { data } = useCallQuery('support', 'settings', []);
  useEffect(() => {
    if (data && typeof data === 'object' && Number.isFinite(data.warnRefreshSeconds)) applyConsoleSettings(data);
  }, [data]);
}
