import { useMutation, useQuery, useQueryClient, type UseMutationOptions, type UseQueryOptions } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { CallArgs, CallModule, CallName, CallResult } from './dataCalls';
import type { ConsoleDataProvider } from './dataProvider';

/**
 * The one way a page reads or changes data that is not a resource's CRUD: the dataProvider's call
 * method through react-query. Query keys are ['call', module, name, ...args], so a mutation can
 * invalidate a whole module's calls or a resource's lists (react-admin keys them by resource name).
 */
export const callKey = (module: string, name?: string, args: readonly unknown[] = []) => (name ? ['call', module, name, ...args] : ['call', module]);

export function useConsoleDataProvider(): ConsoleDataProvider {
  return useDataProvider<ConsoleDataProvider>();
}

/** A query over one call; args null: nothing to load yet (the query is disabled). */
export function useCallQuery<M extends CallModule, F extends CallName<M>>(
  module: M,
  name: F,
  args: CallArgs<M, F> | null,
  options: Omit<UseQueryOptions<CallResult<M, F>, Error>, 'queryKey' | 'queryFn'> = {},
) {
  const dataProvider = useConsoleDataProvider();
  return useQuery<CallResult<M, F>, Error>({
    queryKey: callKey(module, name, args ?? []),
    queryFn: () => dataProvider.call(module, name, ...(args as CallArgs<M, F>)),
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
