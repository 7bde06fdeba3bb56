import { keepPreviousData } from '@tanstack/react-query';
import type { Candidate } from '../../api/firmwareApi';
import { useCallQuery } from '../../data/dataHooks';
import { useSettled } from '../../hooks/useSettled';

/** The rollout dialog's page of candidate devices. */
export const PAGE_SIZE = 10;

/** The devices that may take the package (firmware/rollout/candidates), one page; a failure reads as none. */
export function useCandidates(firmwareId: number, open: boolean, search: string, page: number) {
  const name = useSettled(search, 250);
  const candidates = useCallQuery(
    'firmware',
    'candidates',
    open ? [{ firmwareId, name, pageIndex: page + 1, pageSize: PAGE_SIZE }] : null,
    { placeholderData: keepPreviousData, staleTime: 0 },
  );
  return candidates.isError ? { list: [] as Candidate[], total: 0 } : (candidates.data ?? null);
}
