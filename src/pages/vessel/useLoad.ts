import { useCallback, useEffect, useState } from 'react';

export interface Loaded<T> {
  data: T | null;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/** Loads with `load` whenever `key` changes (null key: nothing to load); aborts the previous load. */
export function useLoad<T>(key: string | null, load: (signal: AbortSignal) => Promise<T>): Loaded<T> {
  const [state, setState] = useState<{ data: T | null; error: unknown; loading: boolean; key: string | null }>({ data: null, error: null, loading: false, key: null });
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (key === null) {
      setState({ data: null, error: null, loading: false, key: null });
      return undefined;
    }
    const controller = new AbortController();
    setState((s) => ({ data: s.data, error: null, loading: true, key: s.key }));
    load(controller.signal).then(
      (data) => { if (!controller.signal.aborted) setState({ data, error: null, loading: false, key }); },
      (error: unknown) => { if (!controller.signal.aborted) setState({ data: null, error, loading: false, key }); },
    );
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  // Until the answer for the current key is in, the block counts as loading (the previous data stays shown).
  return { data: state.data, error: state.error, loading: key !== null && (state.loading || state.key !== key), reload };
}
