import { request } from './client';

/** Data plans and usage (deviceModule/dataPlan, issue 17 part 4). Bytes are plain numbers. */
export interface DataPlan { deviceId: number; quotaBytes: number; resetDay: number; updatedAt: string; updatedBy: number | null; updatedByName: string | null }
export interface DataUsage {
  deviceId: number;
  plan: DataPlan | null;
  periodStart: string;
  periodEnd: string;
  usedBytes: number;
  quotaBytes: number | null;
  percent: number | null;
  /** The alarm share reached: 0, 80 or 100. */
  level: number;
  previous: { periodStart: string; periodEnd: string; usedBytes: number };
  /** Bytes per UTC day, oldest first, today last. */
  daily: { date: string; bytes: number }[];
}
export interface FleetUsageRow {
  id: number; deviceId: number; name: string; deviceNum: string | null; ownerId: number | null; ownerName: string | null;
  quotaBytes: number | null; resetDay: number | null; periodStart: string; usedBytes: number; percent: number | null;
}

export const dataPlansApi = {
  getUsage: (deviceId: number, days = 62, signal?: AbortSignal) => request<DataUsage>('/deviceModule/dataPlan/getUsage', { query: { deviceId, days }, signal }),
  setPlan: (plan: { deviceId: number; quotaBytes: number; resetDay: number }) =>
    request<DataUsage>('/deviceModule/dataPlan/set', { method: 'POST', json: plan }),
  removePlan: (deviceId: number) => request<{ changed: number }>('/deviceModule/dataPlan/remove', { method: 'POST', json: { deviceId } }),
};
