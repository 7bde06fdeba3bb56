import { primeRequests, request } from './client';
import { downloadFile } from './transfer';
import type { LinkKind } from '../domain/links';

/** A visible device with its latest reported state (deviceGroup/getAllDeviceUploadDataWithCondition). */
export interface DeviceLiveState {
  id: number;
  name: string;
  deviceNum: string | null;
  /** The vessel's MMSI (9 digits), when known. */
  mmsi?: string | null;
  deviceKind: string;
  deviceType: string;
  ownerId: number | null;
  ownerName: string | null;
  ownerSubId: number;
  activated: boolean;
  status: number;
  offlineMinutes: number;
  reportedAt: string | null;
  receivedAt: string | null;
  reportUnactivated: boolean | null;
  lat: number | null;
  lon: number | null;
  speed: number | null;
  heading: number | null;
  satelliteName: string | null;
  satelliteLongitude: number | null;
  signalLevel: number | null;
  snr: number | null;
  modemLock: boolean | null;
  txOn: boolean | null;
  lteSignal: number | null;
  faults: string[];
  /** The link carrying the vessel's traffic now (priority 0: its primary link); null without links. */
  activeLink: { linkId: string; kind: LinkKind; priority: number } | null;
}

export interface StateCounts {
  total: number;
  online: number;
  offline: number;
  warn: number;
}

export interface LiveStateQuery {
  deviceId?: number;
  deviceStatus?: number[];
  deviceType?: string[];
  ownerSubId?: number[];
  ownerId?: number[];
  search?: string;
  unacknowledgedOnly?: boolean;
  /** Only vessels whose traffic goes over a backup link now. */
  onBackup?: boolean;
  /** Also devices with an unacknowledged data plan alarm, whatever their status (the bell). */
  dataPlanAlarms?: boolean;
  pageIndex?: number;
  pageSize?: number;
  sort?: 'id' | 'name' | 'status' | 'reportedAt' | 'speed' | 'ownerName' | 'deviceKind';
  order?: 'asc' | 'desc';
}

export interface Alarm {
  id: number;
  deviceId: number;
  deviceName: string;
  deviceNum: string | null;
  ownerId: number | null;
  code: string;
  severity: 'critical' | 'major' | 'minor';
  unit: string;
  meaning: string;
  /** What the alarm's raiser added (a geofence's name, a degradation warning's figures: src/domain/degradeDetail.ts). */
  detail: string | null;
  remedy: string;
  raisedAt: string;
  lastSeenAt: string;
  clearedAt: string | null;
  active: boolean;
  ackedBy: number | null;
  ackedByName: string | null;
  ackedAt: string | null;
  /** Messages delivered about it outside the console (the delivery log, filtered by this alarm). */
  notifiedCount: number;
}

export interface AlarmQuery {
  pageIndex?: number;
  pageSize?: number;
  deviceId?: number;
  severity?: string;
  active?: boolean;
  acknowledged?: boolean;
}

/** GET /monitor/linkSummary (docs/api.md, "Links"). */
export interface LinkSummary {
  since: string;
  onBackup: { deviceId: number; deviceName: string; linkId: string; kind: string; since: string }[];
  onBackupCount: number;
  withLinks: number;
  failovers: number;
}

export interface TopFault {
  code: string;
  alarms: number;
  devices: number;
  lastSeenAt: string;
  severity: string | null;
  unit: string | null;
  meaning: string;
}

export type KindCounts = StateCounts & { byKind: Record<string, StateCounts> };

const UPLOAD_DATA = '/deviceModule/deviceGroup/getAllDeviceUploadDataWithCondition';

/** `background: true` on the calls a view repeats by itself (its periodic refresh): they do not keep the session alive. */
export interface CallMode {
  background?: boolean;
}
const bg = (mode?: CallMode) => mode?.background === true;

/** Calls of the monitoring API (docs/api.md "monitoring"). */
export const monitoringApi = {
  /** One page of the status monitor: { list, total, counts per state ignoring the state filter }. */
  livePage: (query: LiveStateQuery, mode?: CallMode) =>
    request<{ list: DeviceLiveState[]; total: number; counts: StateCounts }>(UPLOAD_DATA, {
      method: 'POST',
      json: { ...query, withTotal: true },
      revalidate: true,
      background: bg(mode),
    }),
  /** Every visible device with its state (the fleet map). */
  liveAll: (query: LiveStateQuery = {}, mode?: CallMode) =>
    request<DeviceLiveState[]>(UPLOAD_DATA, { method: 'POST', json: query, revalidate: true, background: bg(mode) }),
  statusCounts: (mode?: CallMode) => request<KindCounts>('/deviceModule/monitor/statusCounts', { background: bg(mode) }),
  topFaults: (days = 7, limit = 5, mode?: CallMode) =>
    request<TopFault[]>('/deviceModule/monitor/topFaults', { query: { days, limit }, background: bg(mode) }),
  /** Vessels on a backup link now and failovers since local midnight at the user's zone (utcOffset hours). */
  linkSummary: (utcOffset: number, limit = 5, mode?: CallMode) =>
    request<LinkSummary>('/deviceModule/monitor/linkSummary', { query: { utcOffset, limit }, background: bg(mode) }),
  alarms: (query: AlarmQuery, mode?: CallMode) =>
    request<{ list: Alarm[]; total: number }>('/deviceModule/alarm/getAll', {
      query: { ...query } as Record<string, string | number | boolean | undefined>,
      background: bg(mode),
    }),
  /** Every alarm the list's filters select (no paging), as an Excel file; -101 within 10 s. */
  exportAlarms: ({ pageIndex: _p, pageSize: _s, ...filters }: AlarmQuery) => downloadFile('/deviceModule/alarm/export', { ...filters }),
  acknowledge: (ids: number[]) => request<{ changed: number }>('/deviceModule/alarm/acknowledge', { method: 'POST', json: { ids } }),
  clear: (ids: number[]) => request<{ changed: number }>('/deviceModule/alarm/clear', { method: 'POST', json: { ids } }),
};

/** How often the pages an operator watches (status monitor, alarm list) refresh: the bell's warnRefreshSeconds, but at least every 10 s. */
export const liveRefreshMs = (warnRefreshSeconds: number): number => Math.max(1, Math.min(warnRefreshSeconds, 10)) * 1000;
/**
 * How often the dashboard refreshes: with the bell, every warnRefreshSeconds (30 s unless the
 * preference says otherwise). It is the page left open on a bridge over a satellite link billed
 * by the megabyte, so it does not poll at the monitor's 10 s.
 */
export const dashboardRefreshMs = (warnRefreshSeconds: number): number => Math.max(1, warnRefreshSeconds) * 1000;

/** The dashboard's queries (src/pages/dashboard/): its latest alarms and its top faults. */
export const DASHBOARD_LATEST_ALARMS: AlarmQuery = { pageIndex: 1, pageSize: 6, active: true };
export const DASHBOARD_TOP_FAULTS = { days: 7, limit: 5 } as const;

/**
 * Starts the dashboard's calls before its code has loaded (at start on /dashboard, or as the login
 * hands over to it): the fleet map, the counts, the alarms and the top faults take these answers.
 */
export function primeDashboard(): void {
  primeRequests(() => {
    void monitoringApi.liveAll({});
    void monitoringApi.statusCounts();
    void monitoringApi.alarms(DASHBOARD_LATEST_ALARMS);
    void monitoringApi.topFaults(DASHBOARD_TOP_FAULTS.days, DASHBOARD_TOP_FAULTS.limit);
  });
}
