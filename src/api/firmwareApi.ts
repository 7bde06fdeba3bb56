import type { FirmwarePackage, Rollout, UpdateState } from '../domain/firmware';
import { request, type QueryValue } from './client';
import { uploadWithProgress } from './transfer';

export type { FirmwarePackage, Rollout };

/**
 * Calls of deviceModule/firmware (docs/api.md "firmware") that are not the system/firmware resource's
 * CRUD (src/resources/firmware/definition.ts: getAll, getById, update, deleteById go through the
 * dataProvider). Pages reach them through dataProvider.call('firmware', name, ...args).
 */
export interface FirmwareConfig {
  maxBytes: number;
  maxMb: number;
  versionTypes: string[];
}

export interface RolloutTarget {
  deviceId: number;
  deviceName: string;
  deviceNum: string | null;
  ownerName: string | null;
  state: UpdateState;
  progress: number;
  message: string | null;
  updatedAt: string;
}

export interface Candidate {
  id: number;
  name: string;
  deviceNum: string | null;
  deviceSn: string;
  ownerName: string | null;
  groupId: number | null;
  groupName: string | null;
  activated: boolean;
  aduVersion: string;
  bduVersion: string;
  busyState: UpdateState | null;
}

export interface Page<T> {
  list: T[];
  total: number;
}

const M = '/deviceModule/firmware';
/** An upload may take long on a ship's link: the time-out is the upload's, not the 60 s of a call. */
const UPLOAD_TIMEOUT_MS = 2 * 60 * 60 * 1000;

export const firmwareApi = {
  config: () => request<FirmwareConfig>(`${M}/getConfig`),
  /** The fields first, then the file: the server checks them before it stores a byte. */
  upload(fields: Record<string, string>, file: File, onProgress: (fraction: number) => void, signal?: AbortSignal) {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    form.append('file', file, file.name);
    const sent = uploadWithProgress<FirmwarePackage>(`${M}/add`, form, { onProgress, signal, timeoutMs: UPLOAD_TIMEOUT_MS, quiet: true });
    // An aborted XMLHttpRequest settles nothing: end the wait here.
    const aborted = new Promise<never>((_, reject) =>
      signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
    );
    return Promise.race([sent, aborted]);
  },
  setEnabled: (id: number, enabled: boolean) => request<FirmwarePackage>(`${M}/setEnabled`, { method: 'POST', json: { id, enabled } }),
  candidates: (query: Record<string, QueryValue>) => request<Page<Candidate>>(`${M}/rollout/candidates`, { query }),
  startRollout: (body: { firmwareId: number; deviceIds?: number[]; groupId?: number | null; maxConcurrent: number }) =>
    request<Rollout>(`${M}/rollout/add`, { method: 'POST', json: body, quiet: true }),
  rollouts: (firmwareId: number) => request<Rollout[]>(`${M}/rollout/getAll`, { query: { firmwareId } }),
  /**
   * One page of a rollout's devices. `counts` is not sent: it is the rollout's counts, only there to
   * key the query (['call', 'firmware', 'targets', ...args]) so the devices are read again when they move.
   */
  targets: (rolloutId: number, pageIndex: number, pageSize: number, state?: string, _counts?: string) =>
    request<Page<RolloutTarget>>(`${M}/rollout/targets`, { query: { rolloutId, pageIndex, pageSize, state } }),
  cancel: (id: number) => request<Rollout>(`${M}/rollout/cancel`, { method: 'POST', query: { id } }),
};
