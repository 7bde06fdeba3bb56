import type { BackupSettings, BackupStatus } from '../domain/backupSettings';
import type { Bilingual, FaultCodeInfo } from '../domain/faultCodes';
import type { PermissionAction, PermissionModule } from '../domain/permissionGroups';
import type { ConsoleSettings } from '../domain/systemSettings';
import { request, type QueryValue } from './client';
import type { CallMode } from './monitoringApi';
import { downloadFile } from './transfer';

/** Calls of supportModule (docs/api.md "support") and the few monitoring calls its pages use. */
export interface FaultGuide extends FaultCodeInfo {
  steps: Bilingual[];
  contactManufacturer: boolean;
  /** The step that says to start an after-sales report (0-based), or null. */
  reportStep: number | null;
}

export interface FaultRecord {
  id: number;
  deviceId: number;
  deviceName: string;
  code: string;
  stepsDone: number[];
  action: string;
  cleared: boolean;
  recordedByName: string | null;
  createdAt: string;
}

/** What saving a record did to the vessel's alarms of its code (docs/api.md, faultClearing). */
export interface FaultRecordAlarms {
  acknowledged: number[];
  reason: 'notCleared' | 'noActiveAlarm' | 'alreadyAcknowledged' | null;
  ackedByName: string | null;
}

export interface ActiveAlarm {
  id: number;
  deviceId: number;
  code: string;
  severity: string;
  raisedAt: string;
  /** In the request's language (a data plan or rule alarm has no entry in the fault guide). */
  meaning: string;
  ackedAt: string | null;
  ackedByName: string | null;
}

export interface VesselItem {
  id: number;
  name: string;
  deviceNum: string | null;
  deviceSn: string;
  deviceModel: string;
  ownerName: string | null;
  status: number;
}

export interface PermissionGroup {
  id: number;
  name: string;
  description: string | null;
  permissions: string[];
  members: { id: number; name: string }[];
}

const S = '/supportModule';

/** What a contact point's test message came to (supportModule/contactPoint/testSend). */
export interface TestSendResult {
  delivered: boolean;
  ms: number;
  reason?: 'target' | 'unreachable' | 'refused';
  message?: string;
}

export interface QuietHours {
  quietFrom: string | null;
  quietTo: string | null;
}

export const supportApi = {
  /** A sub-user puts itself on a rule of its enterprise (or takes itself off), by mail. */
  subscribeAlarmRule: (id: number, subscribed: boolean) =>
    request<{ id: number; subscribed: boolean }>(`${S}/alarmRule/subscribe`, { method: 'POST', query: { id, subscribed } }),
  /** The caller's own quiet hours for alarm mails. */
  quietHours: () => request<QuietHours>(`${S}/notification/quietHours`),
  setQuietHours: (quiet: QuietHours) => request<QuietHours>(`${S}/notification/quietHours`, { method: 'POST', json: quiet }),
  /** Runs a report schedule now: over its last period, or from..to (days in its zone); one run per recipients' zone and language. */
  runReportNow: (id: number, range?: { from: string; to: string }) =>
    request<{ runId: number; runIds: number[] }>(`${S}/reportSchedule/runNow`, { method: 'POST', query: { id, ...range } }),
  /** Saves a run's workbook or PDF. */
  downloadReportRun: (id: number, format: 'xlsx' | 'pdf') => downloadFile(`${S}/reportRun/download`, { id, format }),
  testContactPoint: (id: number) => request<TestSendResult>(`${S}/contactPoint/testSend`, { method: 'POST', query: { id } }),
  faultGuide: () => request<FaultGuide[]>(`${S}/faultClearing/faultCodes`),
  faultRecords: (query: Record<string, QueryValue>) =>
    request<{ list: FaultRecord[]; total: number }>(`${S}/faultClearing/getRecords`, { query }),
  /** The records getRecords selects (no paging), as an Excel file; -101 within 10 s. */
  exportFaultRecords: (query: { deviceId?: number; code?: string; cleared?: boolean }) =>
    downloadFile(`${S}/faultClearing/exportRecords`, query),
  addFaultRecord: (record: { deviceId: number; code: string; stepsDone: number[]; action: string; cleared: boolean }) =>
    request<FaultRecord & { alarms: FaultRecordAlarms }>(`${S}/faultClearing/addRecord`, { method: 'POST', json: record }),
  activeAlarms: (deviceId: number) =>
    request<{ list: ActiveAlarm[]; total: number }>('/deviceModule/alarm/getAll', { query: { deviceId, active: true, pageSize: 100 } }),
  vessels: (search: string) =>
    request<{ list: VesselItem[]; total: number }>('/deviceModule/device/getAll', {
      query: { search: search || undefined, pageSize: 50, sort: 'status', order: 'desc' },
    }),
  vessel: (id: number) => request<VesselItem>('/deviceModule/device/getById', { query: { id } }),
  catalogue: () =>
    request<{ actions: PermissionAction[]; modules: PermissionModule[]; permissions: string[] }>(`${S}/permissionGroup/getCatalogue`),
  groups: () => request<{ list: PermissionGroup[]; total: number }>(`${S}/permissionGroup/getAll`, { query: { pageSize: 500 } }),
  saveGroup: (group: { id?: number; name: string; description?: string | null; permissions: string[] }) =>
    request<PermissionGroup>(`${S}/permissionGroup/${group.id ? 'update' : 'add'}`, { method: 'POST', json: group }),
  deleteGroup: (id: number) => request<null>(`${S}/permissionGroup/deleteById`, { method: 'DELETE', query: { id } }),
  userGroups: (userId: number) => request<number[]>(`${S}/permissionGroup/getUserGroups`, { query: { userId } }),
  setUserGroups: (userId: number, groupIds: number[]) =>
    request<number[]>(`${S}/permissionGroup/setUserGroups`, { method: 'POST', json: { userId, groupIds } }),
  settings: () => request<ConsoleSettings>(`${S}/settings/get`, { quiet: true }),
  updateSettings: (settings: Partial<ConsoleSettings>) =>
    request<ConsoleSettings>(`${S}/settings/update`, { method: 'POST', json: settings }),
  monitorSettings: () =>
    request<{ defaultOfflineMinutes: number; retentionDays: number; reportKeepDays: number }>('/deviceModule/monitor/settings'),
  updateMonitorSettings: (settings: { defaultOfflineMinutes?: number; reportKeepDays?: number }) =>
    request<unknown>('/deviceModule/monitor/updateSettings', { method: 'POST', json: settings }),
  /** The database's backups (level 1): the nightly settings, the last runs, the run in progress (polled while one runs). */
  backupStatus: (mode?: CallMode) => request<BackupStatus>(`${S}/backup/status`, { background: mode?.background === true }),
  updateBackupSettings: (settings: BackupSettings) =>
    request<BackupStatus>(`${S}/backup/updateSettings`, { method: 'POST', json: settings }),
  /** Starts a backup now; the answer comes at once with `running` set, the result shows in the status when it ends. */
  runBackup: () => request<BackupStatus>(`${S}/backup/run`, { method: 'POST' }),
};
