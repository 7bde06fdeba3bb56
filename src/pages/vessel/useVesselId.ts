import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';

/** The vessel a page shows: ?id= in the URL (so links and reloads keep it); null until one is picked. */
export function useVesselId(): [number | null, (id: number | null) => void] {
  const [params, setParams] = useSearchParams();
  const raw = Number(params.get('id'));
  const id = Number.isInteger(raw) && raw > 0 ? raw : null;
  const setId = useCallback(
    (next: number | null) => {
      setParams(
        (current) => {
          const copy = new URLSearchParams(current);
          if (next) copy.set('id', String(next));
          else copy.delete('id');
          return copy;
        },
        { replace: true },
      );
    },
    [setParams],
  );
  return [id, setId];
}
