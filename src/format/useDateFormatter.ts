import { useCallback } from 'react';
import { useClientState } from '../state/useClientState';
import { formatDate } from './date';

/** formatDate bound to the selected time zone; re-renders when the zone changes. */
export function useDateFormatter() {
  const timeZone = useClientState((s) => s.timeZone);
  return useCallback(
    (value: string | number | Date | null | undefined, withTime = true) => formatDate(value, timeZone, withTime),
    [timeZone],
  );
}
