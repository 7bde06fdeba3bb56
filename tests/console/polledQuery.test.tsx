import { afterEach, describe, expect, it } from 'vitest';
import type { ReactNode } from 'react';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { usePolledQuery, type PollMode } from '../../src/data/usePolledQuery';

afterEach(() => cleanup());

function setup(key: () => unknown[]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const modes: { key: string; background: boolean }[] = [];
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  const hook = renderHook(
    () => {
      const queryKey = key();
      return usePolledQuery({
        queryKey,
        poll: async ({ background }: PollMode) => {
          modes.push({ key: JSON.stringify(queryKey), background });
          return modes.length;
        },
        refetchInterval: 40,
      });
    },
    { wrapper },
  );
  return { client, modes, hook };
}

describe('usePolledQuery: only what the user does keeps the session alive', () => {
  it("the first fetch is the user's, the periodic refreshes are background calls, a retry is the user's again", async () => {
    const { modes, hook, client } = setup(() => ['poll', 'a']);
    await waitFor(() => expect(modes.length).toBeGreaterThanOrEqual(3));
    expect(modes[0]!.background).toBe(false);
    expect(modes.slice(1, 3).every((m) => m.background)).toBe(true);
    const before = modes.length;
    await act(async () => {
      await hook.result.current.refetch();
    });
    expect(modes[before]!.background).toBe(false);
    // A refresh after the user changed something (the change was the user's call) is background.
    const count = modes.length;
    await act(async () => {
      await client.invalidateQueries({ queryKey: ['poll'] });
    });
    expect(modes[count]!.background).toBe(true);
    hook.unmount();
  });

  it("a new query (another filter or page) is the user's", async () => {
    let page = 1;
    const { modes, hook } = setup(() => ['poll', page]);
    await waitFor(() => expect(modes.some((m) => m.background)).toBe(true));
    page = 2;
    hook.rerender();
    await waitFor(() => expect(modes.some((m) => m.key === '["poll",2]')).toBe(true));
    expect(modes.find((m) => m.key === '["poll",2]')!.background).toBe(false);
    await waitFor(() => expect(modes.filter((m) => m.key === '["poll",2]').some((m) => m.background)).toBe(true));
    hook.unmount();
  });
});
