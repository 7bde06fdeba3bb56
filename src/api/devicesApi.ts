import type { Device } from '../domain/device';
import type { Feature } from '../domain/features';
import type { NameItem } from '../domain/user';
import { request, type QueryValue } from './client';
import { downloadFile, uploadWithProgress } from './transfer';
import { ErrorCode } from '../domain/errorCodes';

/** deviceModule calls that are not plain resource CRUD (docs/api.md "deviceModule"). */
const M = '/deviceModule';

export interface EnterpriseWithSubUsers extends NameItem {
  children: NameItem[];
}

export const devicesApi = {
  /** The device list as CSV or Excel with the list's filters; -101 within 10 s (the catalogue shows it). */
  exportDevices: (format: 'csv' | 'xlsx', filters: Record<string, QueryValue>) =>
    downloadFile(`${M}/device/export`, { ...filters, format }),
  importTemplate: (lang: string) => downloadFile(`${M}/device/importTemplate`, { lang }),
  /** Row errors (code 1 with data [{row, column, message}]) are not announced: the import dialog lists them. */
  importDevices: (file: File, onProgress: (fraction: number) => void) => {
    const formData = new FormData();
    formData.append('file', file);
    return uploadWithProgress<{ imported: number }>(`${M}/device/import`, formData, {
      onProgress,
      quiet: [ErrorCode.Validation],
      timeoutMs: 10 * 60_000,
    });
  },

  /** Other devices with this MMSI (a warning under the form's field; names only of those the user sees). */
  mmsiInUse: (mmsi: string, exceptId: number) =>
    request<{ count: number; vessels: { id: number; name: string }[] }>(`${M}/device/mmsiInUse`, {
      query: { mmsi, exceptId },
      quiet: true,
    }),

  deleteGroup: (id: number) => request<null>(`${M}/deviceGroup/deleteById`, { method: 'DELETE', query: { id } }),
  moveDevices: (groupId: number, deviceIds: number[]) =>
    request<null>(`${M}/deviceGroup/moveDevices`, { method: 'POST', json: { groupId, deviceIds } }),
  pin: (deviceIds: number[]) => request<null>(`${M}/deviceGroup/pin`, { method: 'POST', json: { deviceIds } }),
  unpin: (deviceIds: number[]) => request<null>(`${M}/deviceGroup/unpin`, { method: 'POST', json: { deviceIds } }),

  findForActivation: (key: string) => request<Device>(`${M}/activation/find`, { query: { key }, quiet: [ErrorCode.NotFound] }),
  activate: (id: number, ownerId: number, ownerSubId: number) =>
    request<{ device: Device; secret: string }>(`${M}/activation/activate`, { method: 'POST', json: { id, ownerId, ownerSubId } }),
  deactivate: (id: number) => request<Device>(`${M}/activation/deactivate`, { method: 'POST', query: { id } }),

  /** Quiet: a vessel the user may not see simply shows its features locked. */
  deviceFeatures: (id: number) => request<Record<Feature, boolean>>(`${M}/deviceAuth/getDeviceFeatures`, { query: { id }, quiet: true }),

  subUserDeviceIds: (subUserId: number) => request<number[]>(`${M}/subUserGrant/getDeviceIds`, { query: { subUserId } }),
  /** Of the granted vessels, those the sub-user may send commands to. */
  subUserCommandDeviceIds: (subUserId: number) => request<number[]>(`${M}/subUserGrant/getCommandDeviceIds`, { query: { subUserId } }),
  setSubUserDevices: (subUserId: number, deviceIds: number[], commandDeviceIds?: number[]) =>
    request<{ granted: number }>(`${M}/subUserGrant/set`, {
      method: 'POST',
      json: { subUserId, deviceIds, ...(commandDeviceIds ? { commandDeviceIds } : {}) },
    }),

  enterprisesWithSubUsers: () => request<EnterpriseWithSubUsers[]>('/users/getEnterpriseUserWithSubUserNameList'),
};
