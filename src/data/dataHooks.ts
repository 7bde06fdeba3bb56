import { useMutation, useQueryClient, type QueryKey, type UseMutationOptions, type UseQueryOptions } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { CallArgs, CallModule, CallName, CallResult } from './dataCalls';
import type { ConsoleDataProvider } from './dataProvider';
import { usePolledQuery } from './usePolledQuery';

/**
 * The data layer's one rule (docs/architecture.md): a page, resource view or layout component reads
 * and writes entities (resources' records and lists) with react-admin's hooks (useGetList,
 * useGetOne, useCreate, ...), and everything else with useCallQuery/useCallMutation below, never
 * with react-query's useQuery or dataProvider.call of its own. They go through the dataProvider's
 * call method (src/data/dataCalls.ts). Query keys are ['call', module, name, ...args], so a
 * mutation can invalidate a whole module's calls or a resource's lists (react-admin keys them by
 * resource name).
 */
export const callKey = (module: string, name?: string, args: readonly unknown[] = []) => (name ? ['call', module, name, ...args] : ['call', module]);

export function useConsoleDataProvider(): ConsoleDataProvider {
  return useDataProvider<ConsoleDataProvider>();
}

/** What useCallQuery takes besides react-query's options: what the call gets after its args. */
export interface CallQueryOptions<T> extends Omit<UseQueryOptions<T, Error, T, QueryKey>, 'queryKey' | 'queryFn'> {
  /**
   * The call's parameter after args is an AbortSignal (history.track, history.location): another
   * key or leaving the page aborts the fetch under way. args must then fill every parameter before it.
   */
  abortable?: boolean;
  /**
   * The call's parameter after args is its CallMode (the monitoring calls). 'polled': a view that
   * refreshes itself, whose fetch is a background call (X-Background: 1) when it repeats the same
   * query by itself (usePolledQuery); 'always': every fetch is a background call (the bell).
   */
  background?: 'polled' | 'always';
  /** Wraps each fetch (the track page's timing for bench/track.ts). */
  around?: (fetch: () => Promise<T>) => Promise<T>;
}

/** A query over one call; args null: nothing to load yet (the query is disabled). */
export function useCallQuery<M extends CallModule, F extends CallName<M>>(
  module: M,
  name: F,
  args: CallArgs<M, F> | null,
  { abortable = false, background, around, ...options }: CallQueryOptions<CallResult<M, F>> = {},
) {
  const dataProvider = useConsoleDataProvider();
  return usePolledQuery<CallResult<M, F>>({
    queryKey: callKey(module, name, args ?? []),
    poll: (mode, context) => {
      // The signal is read only for a call that takes one: reading it is what lets react-query abort.
      const after = abortable ? [context.signal] : background === 'always' ? [{ background: true }] : background ? [mode] : [];
      const fetch = () => dataProvider.call(module, name, ...([...(args as CallArgs<M, F>), ...after] as unknown as CallArgs<M, F>));
      return around ? around(fetch) : fetch();
    },
    enabled: args !== null && (options.enabled ?? true),
    ...options,
  });
}

/** What a change makes stale: resources (their lists and records) and call modules. */
export interface Invalidates {
  resources?: readonly string[];
  calls?: readonly CallModule[];
}

/** A mutation over one call; on success the resources and call modules it names are refetched. */
export function useCallMutation<M extends CallModule, F extends CallName<M>>(
  module: M,
  name: F,
  invalidates: Invalidates = {},
  options: Omit<UseMutationOptions<CallResult<M, F>, Error, CallArgs<M, F>>, 'mutationFn'> = {},
) {
  const dataProvider = useConsoleDataProvider();
  const queryClient = useQueryClient();
  return useMutation<CallResult<M, F>, Error, CallArgs<M, F>>({
    ...options,
    mutationFn: (args) => dataProvider.call(module, name, ...args),
    onSuccess: async (...results) => {
      await Promise.all([
        ...(invalidates.resources ?? []).map((resource) => queryClient.invalidateQueries({ queryKey: [resource] })),
        ...(invalidates.calls ?? [module]).map((m) => queryClient.invalidateQueries({ queryKey: callKey(m) })),
      ]);
      await options.onSuccess?.(...results);
    },
  });
}
