import type { Device } from '../domain/device';
import type { DeviceReport } from '../domain/reportSchema';
import type { LinkWindow, VesselLinks } from '../domain/links';
import type { DataWindow, StreamKind, VoyageStatus } from '../domain/vesselSchemas';
import type { CoverageAnswer, CoverageQuery } from '../domain/coverage';
import { request } from './client';
import { downloadFile } from './transfer';
import { ErrorCode } from '../domain/errorCodes';

/** The vessel pages' calls (deviceModule/vessel, statistics, voyage, camera). */
export interface FaultText {
  code: string;
  severity: string | null;
  unit: string | null;
  meaning: string;
  remedy: string | null;
}
export interface Voyage {
  id: number;
  deviceId: number;
  deviceName: string;
  voyageNo: string;
  destination: string;
  etd: string;
  eta: string;
  agent: string;
  email: string | null;
  phone: string | null;
  remark: string | null;
  status: VoyageStatus;
}
/** A device not activated: its newest report, kept awaiting activation (docs/api.md, GET /vessel/getDetail). */
export interface PendingReport {
  receivedAt: string;
  report: DeviceReport;
}
export interface VesselDetail {
  device: Device;
  latest: Record<string, unknown> | null;
  status: number;
  faults: FaultText[];
  currentVoyage: Voyage | null;
  pendingReport: PendingReport | null;
  /** A reboot the vessel acknowledged and is carrying out: it is down until it connects again (docs/api.md, "command"). */
  rebooting: { commandId: number; since: string; downForS: number | null } | null;
}
export interface SeriesPoint {
  t: number;
  n: number;
  [metric: string]: number;
}
export interface Band {
  from: number;
  to: number;
  state: 'online' | 'warn' | 'offline';
}
export interface VesselSeries {
  window: DataWindow;
  from: string;
  to: string;
  bucketSeconds: number;
  offlineMinutes: number;
  points: SeriesPoint[];
  bands: Band[];
  totals: Record<Band['state'], number>;
  faults: (FaultText & { raisedAt: string; lastSeenAt: string; clearedAt: string | null })[];
}
export interface DayStatistics {
  date: string;
  label: string;
  onlineSeconds: number;
  warnSeconds: number;
  periodSeconds: number;
  availability: number;
}
export interface DailyStatistics {
  list: DayStatistics[];
  onlineSeconds: number;
  periodSeconds: number;
  availability: number;
}
export interface FleetRow {
  deviceId: number;
  name: string;
  deviceNum: string | null;
  locked: boolean;
  onlineSeconds: number | null;
  warnSeconds: number | null;
  availability: number | null;
  periodSeconds: number;
}
export interface Camera {
  id: number;
  deviceId: number;
  deviceName: string;
  name: string;
  link: string;
  description: string | null;
  kind: StreamKind;
}
export interface Page<T> {
  list: T[];
  total: number;
}

export const vesselApi = {
  /** Quiet about code 2: a vessel the user may not see (or none) is the page's own "no access" state, not a message. */
  getDetail: (id: number, signal?: AbortSignal) =>
    request<VesselDetail>('/deviceModule/vessel/getDetail', { query: { id }, signal, quiet: [ErrorCode.NotFound] }),
  getSeries: (id: number, window: DataWindow, signal?: AbortSignal) =>
    request<VesselSeries>('/deviceModule/vessel/getSeries', { query: { id, window }, signal, quiet: [3] }),
  getLinks: (id: number, window: LinkWindow, signal?: AbortSignal) =>
    request<VesselLinks>('/deviceModule/vessel/getLinks', { query: { id, window }, signal, quiet: [3] }),
  /** The fleet's coverage map: cells of one resolution over a window, one satellite or all, within bounds or the world. */
  getCoverage: (query: CoverageQuery, signal?: AbortSignal) =>
    request<CoverageAnswer>('/deviceModule/vessel/getCoverage', { query: { ...query }, signal }),
  getDaily: (id: number, days: number, utcOffset: number, signal?: AbortSignal) =>
    request<DailyStatistics>('/deviceModule/statistics/getDaily', { query: { id, days, utcOffset }, signal, quiet: [3] }),
  getFleet: (
    query: { days: number; utcOffset: number; pageIndex: number; pageSize: number; sort: string; order: string; search?: string },
    signal?: AbortSignal,
  ) => request<Page<FleetRow> & { periodSeconds: number }>('/deviceModule/statistics/getFleet', { query, signal }),
  /** Every vessel getFleet lists, as an Excel file (-101 within 10 s: the catalogue says so). */
  exportFleet: (query: { days: number; utcOffset: number; sort: string; order: string; search?: string }) =>
    downloadFile('/deviceModule/statistics/exportFleet', query),
  currentVoyage: (deviceId: number, signal?: AbortSignal) =>
    request<Voyage | null>('/deviceModule/voyage/getCurrent', { query: { deviceId }, signal }),
};
