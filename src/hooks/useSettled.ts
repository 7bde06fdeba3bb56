import { useEffect, useState } from 'react';

/**
 * The value once it has stopped changing for `ms` (a typed search is asked for when the typing
 * pauses). Shared UI hooks that are not data hooks (those are in src/data/) live in src/hooks/.
 */
export function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
