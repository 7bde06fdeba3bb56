import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { apiUrl, announce } from '../api/client';
import { ApiError } from '../api/errors';
import { useClientState } from '../state/useClientState';
import { createInvalidator } from './invalidations';
import { openLiveConnection, type EventSourceFactory } from './liveConnection';
import { setLiveStatus } from './liveStatus';

/** The stream's path under /cz/{segment} (docs/api.md, live push). */
export const LIVE_EVENTS_PATH = '/deviceModule/live/events';

const browserEventSource: EventSourceFactory | null = typeof EventSource === 'undefined' ? null : (url) => new EventSource(url);

/**
 * Opens the console's live stream while a user is logged in (mounted by the layout, which only
 * logged-in pages render) and closes it on logout or when the token changes. Events refetch the
 * views that show them (src/live/invalidations.ts); an ended session is announced to the error
 * catalogue as a call's refusal would be (docs/requirements.md §8). Renders nothing.
 */
export function LiveUpdates({ createEventSource = browserEventSource }: { createEventSource?: EventSourceFactory | null }) {
  const token = useClientState((s) => s.token);
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!token) return undefined;
    const invalidator = createInvalidator(queryClient);
    const connection = openLiveConnection({
      url: (lastEventId) => apiUrl(LIVE_EVENTS_PATH, { lastEventId }, token),
      createEventSource,
      onKinds: (kinds) => invalidator.invalidate(kinds),
      onStatus: setLiveStatus,
      onEnd: (code, msg) => announce(new ApiError(code, msg, null, LIVE_EVENTS_PATH), undefined),
    });
    return () => {
      connection.close();
      invalidator.close();
    };
  }, [token, queryClient, createEventSource]);
  return null;
}
