import type { EncodedTrack, LocationWindow, TrackSummary, TrackWindow } from '../domain/track';
import type { PositionInput } from '../domain/position';
import { ErrorCode } from '../domain/errorCodes';
import { request } from './client';
import { downloadFile } from './transfer';

/** deviceModule/history calls (docs/api.md "history: track and location"). */
const H = '/deviceModule/history';

export interface TrackDeviceInfo {
  id: number;
  name: string;
  deviceNum: string | null;
  mmsi: string | null;
  offlineMinutes: number;
}

export interface TrackResponse {
  device: TrackDeviceInfo;
  from: string;
  to: string;
  zoom: number;
  detail: boolean;
  toleranceDegrees: number;
  total: number;
  track: EncodedTrack;
  cuts: number[];
  summary: TrackSummary;
}

export interface TrackRequest {
  deviceId: number;
  window: TrackWindow;
  from?: string;
  to?: string;
  zoom: number;
  /** Keep a report at least every window/samples (playback). */
  samples?: number;
  bbox?: { west: number; south: number; east: number; north: number };
}

export interface ManualPosition {
  lat: number;
  lon: number;
  setAt: string;
  setBy: string | null;
}

export interface LocationResponse {
  device: TrackDeviceInfo;
  window: LocationWindow;
  from: string;
  to: string;
  cellDegrees: number;
  /** [lat, lon, first seen (epoch s), last seen (epoch s), reports] per cell, oldest first. */
  points: [number, number, number, number, number][];
  latest: { lat: number; lon: number; reportedAt: string } | null;
  manual: ManualPosition | null;
}

const windowQuery = (r: Pick<TrackRequest, 'deviceId' | 'window' | 'from' | 'to'>) => ({
  deviceId: r.deviceId,
  window: r.window,
  from: r.window === 'custom' ? r.from : undefined,
  to: r.window === 'custom' ? r.to : undefined,
});

export const historyApi = {
  /** A locked feature (code 3) is not announced: the page shows the notice in place. */
  track: (r: TrackRequest, signal?: AbortSignal) =>
    request<TrackResponse>(`${H}/track`, {
      query: { ...windowQuery(r), zoom: r.zoom, samples: r.samples, ...(r.bbox ?? {}) },
      signal,
      quiet: [ErrorCode.Forbidden],
    }),
  exportTrack: (r: Pick<TrackRequest, 'deviceId' | 'window' | 'from' | 'to'>, format: 'gpx' | 'kml' | 'csv') =>
    downloadFile(`${H}/track/export`, { ...windowQuery(r), format }),
  location: (deviceId: number, window: LocationWindow, zoom: number, signal?: AbortSignal) =>
    request<LocationResponse>(`${H}/location`, { query: { deviceId, window, zoom }, signal, quiet: [ErrorCode.Forbidden] }),
  manualPosition: (deviceId: number) => request<ManualPosition | null>(`${H}/manualPosition/get`, { query: { deviceId } }),
  setManualPosition: (deviceId: number, position: PositionInput) =>
    request<ManualPosition>(`${H}/manualPosition/set`, { method: 'POST', json: { deviceId, ...position } }),
  clearManualPosition: (deviceId: number) =>
    request<null>(`${H}/manualPosition/deleteByDeviceId`, { method: 'DELETE', query: { deviceId } }),
};
