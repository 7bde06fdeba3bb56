import { useCallback, useRef } from 'react';
import { hashKey, useQuery, type QueryFunctionContext, type QueryKey, type UseQueryOptions, type UseQueryResult } from '@tanstack/react-query';

/** How a poll's fetch was asked for: `background` when the console refreshes by itself. */
export interface PollMode {
  background: boolean;
}

export type PolledQueryOptions<T> = Omit<UseQueryOptions<T, Error, T, QueryKey>, 'queryFn'> & {
  /**
   * Fetches the data; passes `background` on to the API call (client option `background`). The
   * query's context is handed on for its AbortSignal: reading `context.signal` makes react-query
   * abort the fetch when the key changes or the view unmounts, so only calls that take one read it.
   */
  poll: (mode: PollMode, context: QueryFunctionContext) => Promise<T>;
};

/**
 * useQuery for a view that refreshes itself (refetchInterval). Only what the user does keeps the
 * session alive, so the fetch is a background call (`X-Background: 1`) when it repeats the same
 * query by itself: a periodic refresh, or a refresh after a change the user made (that change was
 * the user's call). The first fetch of a mounted view, a new query (filters, page) and the
 * returned `refetch` (a retry button) are the user's.
 */
export function usePolledQuery<T>({ poll, ...options }: PolledQueryOptions<T>): UseQueryResult<T, Error> {
  const userAsked = useRef(true);
  const lastKey = useRef<string | null>(null);
  const result = useQuery<T, Error, T, QueryKey>({
    ...options,
    queryFn: (context) => {
      const key = hashKey(context.queryKey);
      const background = !userAsked.current && lastKey.current === key;
      userAsked.current = false;
      lastKey.current = key;
      return poll({ background }, context);
    },
  });
  const { refetch } = result;
  const userRefetch = useCallback<typeof refetch>((opts) => {
    userAsked.current = true;
    return refetch(opts);
  }, [refetch]);
  // The result tracks which fields a view reads (fewer renders): keep that, swap refetch only.
  return new Proxy(result, { get: (target, field, receiver) => (field === 'refetch' ? userRefetch : Reflect.get(target, field, receiver)) });
}
