import { useMemo } from 'react';
import type { TrackRequest, TrackResponse } from '../../api/historyApi';
import { useCallQuery } from '../../data/dataHooks';
import { errorCode } from '../../data/dataProvider';
import { ErrorCode } from '../../domain/errorCodes';
import { decodeTrack, type TrackWindow } from '../../domain/track';
import { timeRequest } from '../../map/drawTiming';

/** The overview is asked at this zoom; from two levels deeper the view asks for its detail. */
export const OVERVIEW_ZOOM = 5;
export const DETAIL_FROM_ZOOM = OVERVIEW_ZOOM + 2;
/** Reports kept evenly over the window besides the shape, so playback's cursor report follows the clock. */
const PLAYBACK_SAMPLES = 3000;

/** The vessel and window the page shows (a custom window once applied). */
export interface TrackQuery {
  deviceId: number;
  window: TrackWindow;
  from?: string;
  to?: string;
}

/** The part of the map a detail track is asked for (zoomed in from DETAIL_FROM_ZOOM). */
export type DetailView = Required<Pick<TrackRequest, 'zoom' | 'bbox'>>;

export type TrackLoadState = 'idle' | 'locked' | 'error' | 'loading' | 'ready';

/**
 * The overview track of the vessel and window; another vessel or window aborts the one under way.
 * A track is large: it is not kept once the page has moved on (gcTime 0), so coming back asks again.
 */
export function useOverviewTrack(query: TrackQuery | null, featureLocked: boolean) {
  const overviewRequest: TrackRequest | null =
    query && !(query.window === 'custom' && !query.from) && !featureLocked
      ? { ...query, zoom: OVERVIEW_ZOOM, samples: PLAYBACK_SAMPLES }
      : null;
  const overviewTrack = useCallQuery('history', 'track', overviewRequest ? [overviewRequest] : null, {
    abortable: true,
    gcTime: 0,
    around: timeRequest('track'),
  });
  const data: TrackResponse | null = overviewRequest ? (overviewTrack.data ?? null) : null;
  const locked = (overviewRequest !== null && errorCode(overviewTrack.error) === ErrorCode.Forbidden) || featureLocked;
  const loadState: TrackLoadState = !overviewRequest
    ? 'idle'
    : locked
      ? 'locked'
      : overviewTrack.error
        ? 'error'
        : overviewTrack.isFetching && !overviewTrack.data
          ? 'loading'
          : 'ready';
  const points = useMemo(() => (data ? decodeTrack(data.track) : []), [data]);
  const start = points[0]?.time ?? 0;
  const end = points[points.length - 1]?.time ?? 0;
  return { data, locked, loadState, points, start, end };
}

/** Zoomed in: the full detail of the view; another view aborts the one under way. */
export function useDetailTrack(query: TrackQuery | null, data: TrackResponse | null, detailView: DetailView | null): TrackResponse | null {
  const detailRequest: TrackRequest | null = query && data && detailView ? { ...query, ...detailView } : null;
  const detailTrack = useCallQuery('history', 'track', detailRequest ? [detailRequest] : null, { abortable: true, gcTime: 0 });
  return detailRequest ? (detailTrack.data ?? null) : null;
}
