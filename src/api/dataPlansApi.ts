import { request } from './client';
import type { DataPlan, DataUsage } from '../domain/dataPlans';

export type { DataPlan, DataUsage };

/** Data plans and usage (deviceModule/dataPlan; docs/api.md, "dataPlan"). Bytes are plain numbers. */
export interface FleetUsageRow {
  id: number;
  deviceId: number;
  name: string;
  deviceNum: string | null;
  ownerId: number | null;
  ownerName: string | null;
  quotaBytes: number | null;
  resetDay: number | null;
  periodStart: string;
  usedBytes: number;
  percent: number | null;
}

export const dataPlansApi = {
  getUsage: (deviceId: number, days = 62, signal?: AbortSignal) =>
    request<DataUsage>('/deviceModule/dataPlan/getUsage', { query: { deviceId, days }, signal }),
  setPlan: (plan: { deviceId: number; quotaBytes: number; resetDay: number }) =>
    request<DataUsage>('/deviceModule/dataPlan/set', { method: 'POST', json: plan }),
  removePlan: (deviceId: number) => request<{ changed: number }>('/deviceModule/dataPlan/remove', { method: 'POST', json: { deviceId } }),
};
